import { defineModule } from "../../lib/module";
import type { ReceiptService } from "./receipts";
import { createReceiptService } from "./receipts";
import billingRoutes from "./routes";
import type { BillingService } from "./service";
import { createBillingService } from "./service";

declare module "../../lib/module" {
  interface AppServices {
    billing: BillingService;
    receipts: ReceiptService;
  }
}

/** Subscriptions at the payment providers, their webhooks, the learner's plan and receipts. */
export default defineModule({
  name: "billing",
  needs: ["users", "plans", "notifications", "settings", "mailOutbox", "transactionalMails"],
  provides: ["billing", "receipts"],
  announces: ["user"],
  routesRead: ["audit"],
  build: ({ db, app, config, providers, changes, metrics }, deps) => {
    const { users, plans, notifications } = deps;
    const receipts = createReceiptService({
      db,
      users,
      plans,
      settings: deps.settings,
      outbox: deps.mailOutbox,
      mails: deps.transactionalMails,
      publicUrl: config.publicUrl,
    });
    const billing = createBillingService({
      db,
      providers,
      plans,
      users,
      notifications,
      receipts,
      publicUrl: config.publicUrl,
      log: app.log,
      changes,
      onPaymentEvent: (provider, outcome) => metrics.payment(provider, outcome),
    });
    return { billing, receipts };
  },
  routes: async (api) => {
    await api.register(billingRoutes);
  },
});
