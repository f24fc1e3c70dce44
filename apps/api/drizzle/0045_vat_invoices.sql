ALTER TABLE "customer_plans" ADD COLUMN "buyer_country" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "buyer_country" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "payment_country" text;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "buyer_country" text;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "vat_rate" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "vat_amount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "receipts" ADD COLUMN "vat_note" text;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "seller_country" text DEFAULT 'FR' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "seller_vat_number" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "vat_scheme" text DEFAULT 'exempt' NOT NULL;