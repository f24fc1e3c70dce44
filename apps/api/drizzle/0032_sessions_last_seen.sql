ALTER TABLE "mail_unsubscribes" DROP CONSTRAINT "mail_unsubscribes_kind";--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "last_seen_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_unsubscribes" ADD CONSTRAINT "mail_unsubscribes_kind" CHECK ("mail_unsubscribes"."kind" in ('study_reminders', 'news', 'new_device'));--> statement-breakpoint
UPDATE "sessions" SET "last_seen_at" = "created_at";
