CREATE TABLE "analytics_line_grades" (
	"cue_id" uuid PRIMARY KEY NOT NULL,
	"lesson_id" uuid NOT NULL,
	"grades" integer DEFAULT 0 NOT NULL,
	"again" integer DEFAULT 0 NOT NULL,
	"hard" integer DEFAULT 0 NOT NULL,
	"learners" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "analytics_line_grades" ADD CONSTRAINT "analytics_line_grades_cue_id_lesson_cues_id_fk" FOREIGN KEY ("cue_id") REFERENCES "public"."lesson_cues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_line_grades" ADD CONSTRAINT "analytics_line_grades_lesson_id_lessons_id_fk" FOREIGN KEY ("lesson_id") REFERENCES "public"."lessons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analytics_line_grades_lesson_idx" ON "analytics_line_grades" USING btree ("lesson_id");--> statement-breakpoint
CREATE INDEX "review_logs_created_idx" ON "review_logs" USING btree ("created_at");--> statement-breakpoint
-- the lines' grades the analytics job already went past (before its watermark) are added once
-- here; those after it are the job's to add at its next run. Word cards are not lines.
INSERT INTO "analytics_line_grades" ("cue_id", "lesson_id", "grades", "again", "hard", "learners")
SELECT c."cue_id", c."lesson_id", count(*), count(*) FILTER (WHERE l."rating" = 1), count(*) FILTER (WHERE l."rating" = 2), count(*) FILTER (WHERE l."state" = 0)
FROM "review_logs" l JOIN "review_cards" c ON c."id" = l."card_id"
WHERE c."word" IS NULL AND l."created_at" <= (SELECT "rolled_until" FROM "analytics_state" WHERE "key" = 'rollup')
GROUP BY 1, 2;
