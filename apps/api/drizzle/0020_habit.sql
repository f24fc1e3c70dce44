CREATE TABLE "listening_minutes" (
	"user_id" uuid NOT NULL,
	"lesson_id" uuid NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"seconds" smallint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "listening_minutes_user_id_minute_lesson_id_pk" PRIMARY KEY("user_id","minute","lesson_id"),
	CONSTRAINT "listening_minutes_seconds" CHECK ("listening_minutes"."seconds" between 1 and 60)
);
--> statement-breakpoint
CREATE TABLE "study_reminders" (
	"user_id" uuid NOT NULL,
	"local_date" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "study_reminders_user_id_local_date_pk" PRIMARY KEY("user_id","local_date")
);
--> statement-breakpoint
CREATE TABLE "study_settings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"daily_goal_minutes" smallint DEFAULT 10 NOT NULL,
	"time_zone" text DEFAULT 'Europe/Paris' NOT NULL,
	"reminder_hour" smallint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "study_settings_goal" CHECK ("study_settings"."daily_goal_minutes" between 1 and 240),
	CONSTRAINT "study_settings_hour" CHECK ("study_settings"."reminder_hour" is null or "study_settings"."reminder_hour" between 0 and 23)
);
--> statement-breakpoint
CREATE TABLE "mail_unsubscribes" (
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mail_unsubscribes_user_id_kind_pk" PRIMARY KEY("user_id","kind"),
	CONSTRAINT "mail_unsubscribes_kind" CHECK ("mail_unsubscribes"."kind" in ('study_reminders', 'news'))
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "headers" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "listening_minutes" ADD CONSTRAINT "listening_minutes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_reminders" ADD CONSTRAINT "study_reminders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_settings" ADD CONSTRAINT "study_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_unsubscribes" ADD CONSTRAINT "mail_unsubscribes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "study_settings_reminder_idx" ON "study_settings" USING btree ("reminder_hour") WHERE "study_settings"."reminder_hour" is not null;