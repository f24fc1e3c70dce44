import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client";
import type { PaymentProviders } from "../../integrations/payments";
import type { ChangeBus } from "../../lib/change-bus";
import type { NotificationService } from "../notifications/service";
import type { PlanService } from "../plans/service";
import type { UserService } from "../users/service";
import type { CouponService } from "./coupons";
import type { ReceiptService } from "./receipts";
import type { PaymentOutcome } from "./transition";

/** What the billing service is built from. */
export interface BillingDeps {
  db: Db;
  providers: PaymentProviders;
  plans: PlanService;
  users: UserService;
  notifications: Pick<NotificationService, "notify">;
  /** Issues each payment's numbered receipt in the payment's transaction. */
  receipts: Pick<ReceiptService, "issue" | "ofPayments">;
  /** A coupon entered at the subscription checkout: quoted, and its use taken with the customer plan. */
  coupons: Pick<CouponService, "quote" | "redeem" | "release">;
  publicUrl: string;
  log: FastifyBaseLogger;
  /** Told `user:<id>` after a commit that changed a user's plan or subscription. */
  changes?: ChangeBus;
  /** Told each payment event, for /metrics: checkouts started or failed, payments recorded, activations. */
  onPaymentEvent?: (provider: string, outcome: PaymentOutcome) => void;
  /** A webhook named an order (a course bought once): its purchase re-reads it. */
  completeOrder?: (provider: string, orderId: string) => Promise<void>;
}
