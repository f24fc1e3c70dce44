CREATE TABLE "demo_orders" (
	"id" text PRIMARY KEY NOT NULL,
	"purchase_id" uuid NOT NULL,
	"status" text DEFAULT 'CREATED' NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"capture_id" text,
	"refunded" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "purchases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"plan_id" uuid NOT NULL,
	"course_ids" uuid[] NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"provider" text NOT NULL,
	"provider_order_id" text NOT NULL,
	"provider_capture_id" text,
	"list_amount" integer NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"paid_at" timestamp with time zone,
	"refunded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "purchases_status" CHECK ("purchases"."status" in ('PENDING', 'PAID', 'CANCELLED', 'REFUNDED'))
);
--> statement-breakpoint
ALTER TABLE "receipts" DROP CONSTRAINT "receipts_status";--> statement-breakpoint
DROP INDEX "receipts_payment_key";--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "customer_plan_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "purchase_id" uuid;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "kind" text DEFAULT 'receipt' NOT NULL;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "credit_of" uuid;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "item" text DEFAULT 'subscription' NOT NULL;--> statement-breakpoint
ALTER TABLE "demo_orders" ADD CONSTRAINT "demo_orders_purchase_id_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "purchases_user_idx" ON "purchases" USING btree ("user_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "purchases_provider_order_key" ON "purchases" USING btree ("provider","provider_order_id");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_purchase_id_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_credit_of_receipts_id_fk" FOREIGN KEY ("credit_of") REFERENCES "public"."receipts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "receipts_payment_kind_key" ON "receipts" USING btree ("payment_id","kind");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_one_item" CHECK (("payments"."customer_plan_id" is null) <> ("payments"."purchase_id" is null));--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_status" CHECK ("receipts"."status" in ('PAID', 'REFUNDED'));