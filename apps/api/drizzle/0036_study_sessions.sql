CREATE TABLE "study_sessions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"items" integer NOT NULL,
	"correct" integer NOT NULL,
	"seconds" integer DEFAULT 0 NOT NULL,
	"finished_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "study_sessions_kind" CHECK ("study_sessions"."kind" in ('review', 'exercise')),
	CONSTRAINT "study_sessions_counts" CHECK ("study_sessions"."items" >= 0 and "study_sessions"."correct" between 0 and "study_sessions"."items")
);
--> statement-breakpoint
ALTER TABLE "study_settings" ADD COLUMN "learning_language" text;--> statement-breakpoint
ALTER TABLE "study_settings" ADD COLUMN "level" text;--> statement-breakpoint
ALTER TABLE "study_sessions" ADD CONSTRAINT "study_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "study_sessions_user_finished_idx" ON "study_sessions" USING btree ("user_id","finished_at");