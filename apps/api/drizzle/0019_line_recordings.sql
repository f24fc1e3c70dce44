CREATE TABLE "line_recordings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"cue_id" uuid NOT NULL,
	"lesson_id" uuid NOT NULL,
	"storage_key" text NOT NULL,
	"mime_type" text NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "line_recordings" ADD CONSTRAINT "line_recordings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_recordings" ADD CONSTRAINT "line_recordings_cue_id_lesson_cues_id_fk" FOREIGN KEY ("cue_id") REFERENCES "public"."lesson_cues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_recordings" ADD CONSTRAINT "line_recordings_lesson_id_lessons_id_fk" FOREIGN KEY ("lesson_id") REFERENCES "public"."lessons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "line_recordings_user_cue_key" ON "line_recordings" USING btree ("user_id","cue_id");--> statement-breakpoint
CREATE INDEX "line_recordings_user_lesson_idx" ON "line_recordings" USING btree ("user_id","lesson_id");