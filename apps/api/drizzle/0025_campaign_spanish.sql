ALTER TABLE "mail_campaigns" ADD COLUMN "subject_es" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_campaigns" ADD COLUMN "body_es" text DEFAULT '' NOT NULL;