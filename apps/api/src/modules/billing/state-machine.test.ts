import { describe, expect, it } from "vitest";
import { type CustomerPlanState, decide } from "./state-machine";

const now = new Date("2025-03-10T12:00:00Z");
const nextBilling = new Date("2025-04-10T12:00:00Z");
const state = (over: Partial<CustomerPlanState> = {}): CustomerPlanState => ({
  status: "ACTIVE",
  startedAt: new Date("2025-03-10T11:00:00Z"),
  lastPaymentAt: new Date("2025-03-10T11:00:00Z"),
  nextBillingAt: nextBilling,
  cancelledAt: null,
  accessUntil: null,
  ...over,
});

describe("billing state machine", () => {
  it("pending stays pending until the provider activates it", () => {
    const pending = state({
      status: "APPROVAL_PENDING",
      startedAt: null,
      lastPaymentAt: null,
      nextBillingAt: null,
    });
    expect(decide(pending, { id: "S", status: "APPROVED" }, "sync", now).patch).toBeNull();
    const active = decide(pending, { id: "S", status: "ACTIVE", nextBillingTime: nextBilling }, "sync", now);
    expect(active).toMatchObject({
      activated: true,
      patch: { status: "ACTIVE", nextBillingAt: nextBilling },
    });
  });

  it("the same truth twice changes nothing", () => {
    const truth = { id: "S", status: "ACTIVE" as const, nextBillingTime: nextBilling };
    expect(decide(state(), truth, "sync", now)).toEqual({
      patch: null,
      activated: false,
      cancelAtProvider: false,
    });
  });

  it("a learner's cancellation keeps the paid period; the provider's does not", () => {
    const learner = decide(state(), { id: "S", status: "CANCELLED" }, "learner-cancel", now);
    expect(learner.patch).toMatchObject({
      status: "CANCELLED",
      accessUntil: nextBilling,
      nextBillingAt: null,
    });
    const provider = decide(state(), { id: "S", status: "CANCELLED" }, "sync", now);
    expect(provider.patch).toMatchObject({ status: "CANCELLED", accessUntil: null });
  });

  it("suspended and expired end access", () => {
    expect(decide(state(), { id: "S", status: "SUSPENDED" }, "sync", now).patch).toMatchObject({
      status: "SUSPENDED",
      accessUntil: null,
    });
    expect(decide(state(), { id: "S", status: "EXPIRED" }, "sync", now).patch).toMatchObject({
      status: "EXPIRED",
    });
  });

  it("ours cancelled is final: a provider still billing is told to cancel", () => {
    const ours = state({ status: "CANCELLED", accessUntil: nextBilling });
    expect(decide(ours, { id: "S", status: "ACTIVE" }, "sync", now)).toEqual({
      patch: null,
      activated: false,
      cancelAtProvider: true,
    });
    expect(decide(ours, { id: "S", status: "CANCELLED" }, "sync", now).cancelAtProvider).toBe(false);
  });
});
