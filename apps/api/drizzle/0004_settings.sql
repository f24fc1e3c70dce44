CREATE TABLE "settings" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"audio_source" text DEFAULT 'server' NOT NULL,
	"audio_cdn_base_url" text,
	"contact_email" text NOT NULL,
	"support_url" text,
	"default_locale" text DEFAULT 'fr' NOT NULL,
	"registrations_open" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	CONSTRAINT "settings_single_row" CHECK ("settings"."id" = 1),
	CONSTRAINT "settings_audio_source" CHECK ("settings"."audio_source" in ('server', 'cdn')),
	CONSTRAINT "settings_cdn_base_url" CHECK ("settings"."audio_source" <> 'cdn' or "settings"."audio_cdn_base_url" is not null),
	CONSTRAINT "settings_default_locale" CHECK ("settings"."default_locale" in ('fr', 'en'))
);
--> statement-breakpoint
ALTER TABLE "settings" ADD CONSTRAINT "settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;