CREATE TABLE "alignment_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lesson_id" uuid NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"apply" text NOT NULL,
	"lang" text NOT NULL,
	"script" jsonb NOT NULL,
	"progress" double precision DEFAULT 0 NOT NULL,
	"mode" text,
	"elapsed_ms" double precision,
	"lines" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error_code" text,
	"error_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alignment_jobs" ADD CONSTRAINT "alignment_jobs_lesson_id_lessons_id_fk" FOREIGN KEY ("lesson_id") REFERENCES "public"."lessons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alignment_jobs_one_active_idx" ON "alignment_jobs" USING btree ("lesson_id") WHERE "alignment_jobs"."status" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "alignment_jobs_lesson_idx" ON "alignment_jobs" USING btree ("lesson_id","created_at");--> statement-breakpoint
CREATE INDEX "alignment_jobs_status_idx" ON "alignment_jobs" USING btree ("status","created_at");