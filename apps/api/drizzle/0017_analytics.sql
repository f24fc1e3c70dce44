CREATE TABLE "analytics_active" (
	"day" date NOT NULL,
	"user_id" uuid NOT NULL,
	CONSTRAINT "analytics_active_day_user_id_pk" PRIMARY KEY("day","user_id")
);
--> statement-breakpoint
CREATE TABLE "analytics_daily" (
	"day" date NOT NULL,
	"metric" text NOT NULL,
	"dim" text DEFAULT '' NOT NULL,
	"value" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_daily_metric_day_dim_pk" PRIMARY KEY("metric","day","dim")
);
--> statement-breakpoint
CREATE TABLE "analytics_lesson_reach" (
	"lesson_id" uuid PRIMARY KEY NOT NULL,
	"course_id" uuid NOT NULL,
	"learners" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_state" (
	"key" text PRIMARY KEY NOT NULL,
	"rolled_until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "analytics_active" ADD CONSTRAINT "analytics_active_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_lesson_reach" ADD CONSTRAINT "analytics_lesson_reach_lesson_id_lessons_id_fk" FOREIGN KEY ("lesson_id") REFERENCES "public"."lessons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_lesson_reach" ADD CONSTRAINT "analytics_lesson_reach_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analytics_active_user_idx" ON "analytics_active" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "lesson_progress_updated_idx" ON "lesson_progress" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "lesson_progress_created_idx" ON "lesson_progress" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "lesson_progress_done_at_idx" ON "lesson_progress" USING btree ("done_at");--> statement-breakpoint
CREATE INDEX "review_logs_reviewed_idx" ON "review_logs" USING btree ("reviewed_at");