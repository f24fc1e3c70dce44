ALTER TABLE "mail_campaigns" ADD COLUMN "unsubscribed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_deliveries" ADD COLUMN "unsubscribed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "lesson_progress_user_updated_idx" ON "lesson_progress" USING btree ("user_id","updated_at");