CREATE TABLE "paypal_intro_plans" (
	"plan_id" uuid PRIMARY KEY NOT NULL,
	"paypal_plan_id" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"interval" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "coupon_redemptions" ALTER COLUMN "purchase_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "coupon_redemptions" ADD COLUMN "customer_plan_id" uuid;--> statement-breakpoint
ALTER TABLE "coupons" ADD COLUMN "duration" text DEFAULT 'once' NOT NULL;--> statement-breakpoint
ALTER TABLE "customer_plans" ADD COLUMN "coupon_id" uuid;--> statement-breakpoint
ALTER TABLE "customer_plans" ADD COLUMN "coupon_code" text;--> statement-breakpoint
ALTER TABLE "customer_plans" ADD COLUMN "coupon_duration" text;--> statement-breakpoint
ALTER TABLE "customer_plans" ADD COLUMN "list_amount" integer;--> statement-breakpoint
ALTER TABLE "customer_plans" ADD COLUMN "discounted_amount" integer;--> statement-breakpoint
ALTER TABLE "paypal_intro_plans" ADD CONSTRAINT "paypal_intro_plans_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupon_redemptions" ADD CONSTRAINT "coupon_redemptions_customer_plan_id_customer_plans_id_fk" FOREIGN KEY ("customer_plan_id") REFERENCES "public"."customer_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_plans" ADD CONSTRAINT "customer_plans_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "coupon_redemptions_customer_plan_key" ON "coupon_redemptions" USING btree ("customer_plan_id");--> statement-breakpoint
ALTER TABLE "coupon_redemptions" ADD CONSTRAINT "coupon_redemptions_one_item" CHECK (("coupon_redemptions"."purchase_id" is null) <> ("coupon_redemptions"."customer_plan_id" is null));