import { describe, expect, it } from "vitest";
import type { ProviderOrder } from "../../integrations/payments";
import { nextPurchaseStep } from "./purchase-machine";

const capture = (status: string) => ({ id: "C1", status, amountCents: 4900, currency: "EUR" });
const order = (status: ProviderOrder["status"], c?: string): ProviderOrder => ({
  id: "O1",
  status,
  ...(c && { capture: capture(c) }),
});

describe("nextPurchaseStep", () => {
  it.each<[string, Parameters<typeof nextPurchaseStep>, string]>([
    ["pending, buyer not back", ["PENDING", order("PENDING")], "none"],
    ["pending, approved", ["PENDING", order("APPROVED")], "capture"],
    ["pending, captured", ["PENDING", order("COMPLETED", "COMPLETED")], "pay"],
    ["pending, capture held by PayPal", ["PENDING", order("COMPLETED", "PENDING")], "none"],
    ["pending, captured then refunded at PayPal", ["PENDING", order("COMPLETED", "REFUNDED")], "pay"],
    ["pending, voided", ["PENDING", order("VOIDED")], "cancel"],
    ["paid, captured again (replay)", ["PAID", order("COMPLETED", "COMPLETED")], "none"],
    ["refunded", ["REFUNDED", order("COMPLETED", "REFUNDED")], "none"],
    ["cancelled, approved late", ["CANCELLED", order("APPROVED")], "none"],
  ])("%s", (_, args, kind) => {
    expect(nextPurchaseStep(...args).kind).toBe(kind);
  });
});
