ALTER TABLE "courses" ADD COLUMN "drip_mode" text DEFAULT 'open' NOT NULL;--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "drip_days" integer DEFAULT 7 NOT NULL;