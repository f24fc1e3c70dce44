CREATE TABLE "subscription_trials" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"customer_plan_id" uuid NOT NULL,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "customer_plans" ADD COLUMN "payment_country" text;--> statement-breakpoint
ALTER TABLE "customer_plans" ADD COLUMN "trial_days" integer;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "trial_days" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "paypal_trial_plan_id" text;--> statement-breakpoint
ALTER TABLE "subscription_trials" ADD CONSTRAINT "subscription_trials_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_trial_days" CHECK ("plans"."trial_days" between 0 and 365);