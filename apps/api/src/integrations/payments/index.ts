import type { PaymentsConfig } from "../../config";
import type { Db } from "../../db/client";
import { createDemoProvider, type DemoProvider } from "./demo";
import { createPaypalProvider } from "./paypal";
import type { PaymentProvider } from "./provider";

export * from "./provider";

export interface PaymentProviders {
  /** The provider new subscriptions and new paid plans use. */
  active: PaymentProvider;
  /** The demo checkout, only when it is the active provider (never next to real payments). */
  demo: DemoProvider | null;
  /** The provider that serves an existing customer plan, by its stored name. */
  byName(name: string): PaymentProvider | null;
}

export function createPaymentProviders(
  config: PaymentsConfig,
  db: Db,
  logger?: { warn(obj: object, msg?: string): void },
): PaymentProviders {
  if (config.provider === "paypal" && config.paypal) {
    const paypal = createPaypalProvider({ ...config.paypal, ...(logger && { logger }) });
    return { active: paypal, demo: null, byName: (name) => (name === "paypal" ? paypal : null) };
  }
  const demo = createDemoProvider(db);
  return { active: demo, demo, byName: (name) => (name === "demo" ? demo : null) };
}
