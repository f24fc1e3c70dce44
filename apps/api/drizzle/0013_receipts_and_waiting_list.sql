CREATE TABLE "receipt_counters" (
	"year" integer PRIMARY KEY NOT NULL,
	"last" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "receipts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payment_id" uuid NOT NULL,
	"user_id" uuid,
	"year" integer NOT NULL,
	"seq" integer NOT NULL,
	"number" text NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"buyer_name" text NOT NULL,
	"buyer_email" text NOT NULL,
	"lang" text NOT NULL,
	"plan_name_fr" text NOT NULL,
	"plan_name_en" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text DEFAULT 'PAID' NOT NULL,
	"provider" text NOT NULL,
	"seller" jsonb NOT NULL,
	CONSTRAINT "receipts_status" CHECK ("receipts"."status" in ('PAID'))
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"dedupe_key" text NOT NULL,
	"user_id" uuid,
	"email" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text,
	"attachments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"locked_until" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mail_outbox_status" CHECK ("mail_outbox"."status" in ('PENDING', 'SENDING', 'SENT', 'FAILED'))
);
--> statement-breakpoint
ALTER TABLE "registrations" DROP CONSTRAINT "registrations_status";--> statement-breakpoint
DROP INDEX "registrations_one_booked_key";--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "premium_only" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "promoted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "reminded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "seller_name" text DEFAULT 'Parlons' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "seller_address" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "seller_tax_id" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "receipts_payment_key" ON "receipts" USING btree ("payment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "receipts_year_seq_key" ON "receipts" USING btree ("year","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "receipts_number_key" ON "receipts" USING btree ("number");--> statement-breakpoint
CREATE INDEX "receipts_user_idx" ON "receipts" USING btree ("user_id","issued_at");--> statement-breakpoint
CREATE UNIQUE INDEX "mail_outbox_dedupe_key" ON "mail_outbox" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "mail_outbox_work_idx" ON "mail_outbox" USING btree ("locked_until") WHERE "mail_outbox"."status" in ('PENDING', 'SENDING');--> statement-breakpoint
CREATE UNIQUE INDEX "registrations_one_live_key" ON "registrations" USING btree ("event_id","user_id") WHERE "registrations"."status" in ('BOOKED', 'WAITING');--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_status" CHECK ("registrations"."status" in ('BOOKED', 'WAITING', 'CANCELLED'));