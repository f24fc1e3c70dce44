import { defineModule } from "../../lib/module";
import couponRoutes from "./coupon-routes";
import { type CouponService, createCouponService } from "./coupons";
import purchaseRoutes from "./purchase-routes";
import { createPurchaseService, type PurchaseService } from "./purchases";
import type { ReceiptService } from "./receipts";
import { createReceiptService } from "./receipts";
import billingRoutes from "./routes";
import { createSalesService, type SalesService } from "./sales";
import salesRoutes from "./sales-routes";
import type { BillingService } from "./service";
import { createBillingService } from "./service";
import type { PaymentOutcome } from "./transition";

declare module "../../lib/module" {
  interface AppServices {
    billing: BillingService;
    receipts: ReceiptService;
    purchases: PurchaseService;
    coupons: CouponService;
    sales: SalesService;
  }
}

/** Subscriptions and courses bought once at the payment providers, their webhooks, the learner's plan, receipts and credit notes, coupons, and the staff's view of sales. */
export default defineModule({
  name: "billing",
  needs: ["users", "plans", "notifications", "settings", "mailOutbox", "transactionalMails"],
  provides: ["billing", "receipts", "purchases", "coupons", "sales"],
  announces: ["user"],
  routesRead: ["audit", "courses"],
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
    const onPaymentEvent = (provider: string, outcome: PaymentOutcome) => metrics.payment(provider, outcome);
    const coupons = createCouponService({ db, plans });
    const purchases = createPurchaseService({
      db,
      providers,
      plans,
      users,
      coupons,
      receipts,
      publicUrl: config.publicUrl,
      log: app.log,
      changes,
      onPaymentEvent,
    });
    const billing = createBillingService({
      db,
      providers,
      plans,
      users,
      notifications,
      receipts,
      coupons,
      publicUrl: config.publicUrl,
      log: app.log,
      changes,
      onPaymentEvent,
      completeOrder: async (provider, orderId) => {
        const id = await purchases.byOrder(provider, orderId);
        if (id) await purchases.complete(id);
      },
    });
    return { billing, receipts, purchases, coupons, sales: createSalesService({ db }) };
  },
  routes: async (api) => {
    await api.register(billingRoutes);
    await api.register(purchaseRoutes);
    await api.register(couponRoutes);
    await api.register(salesRoutes);
  },
});
