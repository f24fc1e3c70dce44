ALTER TABLE "paypal_intro_plans" DROP CONSTRAINT "paypal_intro_plans_pkey";--> statement-breakpoint
ALTER TABLE "paypal_intro_plans" ADD COLUMN "trial_days" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "paypal_intro_plans" ADD CONSTRAINT "paypal_intro_plans_plan_id_trial_days_pk" PRIMARY KEY("plan_id","trial_days");
