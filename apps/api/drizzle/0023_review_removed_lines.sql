CREATE TABLE "review_removed_lines" (
	"user_id" uuid NOT NULL,
	"cue_id" uuid NOT NULL,
	"lesson_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "review_removed_lines_user_id_cue_id_pk" PRIMARY KEY("user_id","cue_id")
);
--> statement-breakpoint
ALTER TABLE "review_removed_lines" ADD CONSTRAINT "review_removed_lines_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_removed_lines" ADD CONSTRAINT "review_removed_lines_cue_id_lesson_cues_id_fk" FOREIGN KEY ("cue_id") REFERENCES "public"."lesson_cues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_removed_lines" ADD CONSTRAINT "review_removed_lines_lesson_id_lessons_id_fk" FOREIGN KEY ("lesson_id") REFERENCES "public"."lessons"("id") ON DELETE cascade ON UPDATE no action;