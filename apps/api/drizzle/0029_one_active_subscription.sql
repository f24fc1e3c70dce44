ALTER TABLE "customer_plans" ADD COLUMN "replaces_id" uuid;--> statement-breakpoint
ALTER TABLE "customer_plans" ADD COLUMN "duplicate_of" uuid;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "status" text DEFAULT 'PAID' NOT NULL;--> statement-breakpoint
ALTER TABLE "customer_plans" ADD CONSTRAINT "customer_plans_replaces_id_customer_plans_id_fk" FOREIGN KEY ("replaces_id") REFERENCES "public"."customer_plans"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_plans" ADD CONSTRAINT "customer_plans_duplicate_of_customer_plans_id_fk" FOREIGN KEY ("duplicate_of") REFERENCES "public"."customer_plans"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Learners who hold several ACTIVE subscriptions (concurrent activations before this index) keep
-- one: the plan their account is on, the newest first. The others are cancelled here and marked as
-- duplicates; the subscription sync cancels them at the provider within its next run.
WITH ranked AS (
	SELECT cp.id,
		first_value(cp.id) OVER w AS kept,
		row_number() OVER w AS rank
	FROM "customer_plans" cp JOIN "users" u ON u.id = cp.user_id
	WHERE cp.status = 'ACTIVE'
	WINDOW w AS (PARTITION BY cp.user_id ORDER BY (cp.plan_id = u.plan_id) DESC NULLS LAST, cp.created_at DESC, cp.id DESC)
)
UPDATE "customer_plans" SET "status" = 'CANCELLED', "cancelled_at" = now(), "next_billing_at" = NULL,
	"access_until" = NULL, "duplicate_of" = ranked.kept, "updated_at" = now()
FROM ranked WHERE "customer_plans".id = ranked.id AND ranked.rank > 1;--> statement-breakpoint
CREATE UNIQUE INDEX "customer_plans_one_active_key" ON "customer_plans" USING btree ("user_id") WHERE "customer_plans"."status" = 'ACTIVE';