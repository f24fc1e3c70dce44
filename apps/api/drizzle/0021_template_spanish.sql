ALTER TABLE "email_templates" ADD COLUMN "subject_es" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "email_templates" ADD COLUMN "body_es" text DEFAULT '' NOT NULL;