CREATE TABLE "lesson_cues" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lesson_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"start" double precision NOT NULL,
	"end" double precision NOT NULL,
	"text" text NOT NULL,
	"translation_fr" text DEFAULT '' NOT NULL,
	"translation_en" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_cards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"cue_id" uuid NOT NULL,
	"lesson_id" uuid NOT NULL,
	"due" timestamp with time zone DEFAULT now() NOT NULL,
	"stability" double precision DEFAULT 0 NOT NULL,
	"difficulty" double precision DEFAULT 0 NOT NULL,
	"elapsed_days" integer DEFAULT 0 NOT NULL,
	"scheduled_days" integer DEFAULT 0 NOT NULL,
	"learning_steps" integer DEFAULT 0 NOT NULL,
	"reps" integer DEFAULT 0 NOT NULL,
	"lapses" integer DEFAULT 0 NOT NULL,
	"state" smallint DEFAULT 0 NOT NULL,
	"last_review" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_logs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"card_id" uuid NOT NULL,
	"rating" smallint NOT NULL,
	"state" smallint NOT NULL,
	"reviewed_at" timestamp with time zone NOT NULL,
	"due_before" timestamp with time zone NOT NULL,
	"due_after" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "lesson_cues" ADD CONSTRAINT "lesson_cues_lesson_id_lessons_id_fk" FOREIGN KEY ("lesson_id") REFERENCES "public"."lessons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_cards" ADD CONSTRAINT "review_cards_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_cards" ADD CONSTRAINT "review_cards_cue_id_lesson_cues_id_fk" FOREIGN KEY ("cue_id") REFERENCES "public"."lesson_cues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_cards" ADD CONSTRAINT "review_cards_lesson_id_lessons_id_fk" FOREIGN KEY ("lesson_id") REFERENCES "public"."lessons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_logs" ADD CONSTRAINT "review_logs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_logs" ADD CONSTRAINT "review_logs_card_id_review_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."review_cards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lesson_cues_lesson_position_idx" ON "lesson_cues" USING btree ("lesson_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "review_cards_user_cue_key" ON "review_cards" USING btree ("user_id","cue_id");--> statement-breakpoint
CREATE INDEX "review_cards_user_due_idx" ON "review_cards" USING btree ("user_id","due");--> statement-breakpoint
CREATE INDEX "review_cards_cue_idx" ON "review_cards" USING btree ("cue_id");--> statement-breakpoint
CREATE INDEX "review_cards_lesson_idx" ON "review_cards" USING btree ("lesson_id");--> statement-breakpoint
CREATE INDEX "review_logs_user_reviewed_idx" ON "review_logs" USING btree ("user_id","reviewed_at");--> statement-breakpoint
CREATE INDEX "review_logs_card_idx" ON "review_logs" USING btree ("card_id");--> statement-breakpoint
-- Timed transcripts (`[mm:ss] sentence` lines) become lesson_cues; a line without a time joins
-- the cue before it (as parseTranscript does); a cue ends where the next starts, else at the
-- audio's end, else 5 s later. Those lessons keep an empty transcript: their lines are the cues.
WITH lines AS (
  SELECT l.id AS lesson_id, l.audio_duration, t.line, t.n,
         regexp_match(t.line, '^\s*\[(?:(\d{1,2}):)?(\d{1,3}):(\d{2})(?:\.(\d{1,3}))?\]\s*(.*)$') AS m
  FROM lessons l, regexp_split_to_table(l.transcript, E'\r?\n') WITH ORDINALITY AS t(line, n)
  WHERE l.transcript ~ '(^|\n)\s*\[(\d{1,2}:)?\d{1,3}:\d{2}(\.\d{1,3})?\]'
), grouped AS (
  SELECT *, count(m) OVER (PARTITION BY lesson_id ORDER BY n) AS cue_no FROM lines
), cues AS (
  SELECT lesson_id, cue_no, max(audio_duration) AS audio_duration,
         max(CASE WHEN m IS NOT NULL THEN
           coalesce(m[1]::int, 0) * 3600 + m[2]::int * 60 + m[3]::int
           + coalesce(('0.' || m[4])::double precision, 0) END) AS start,
         trim(string_agg(CASE WHEN m IS NOT NULL THEN trim(m[5]) ELSE trim(line) END, ' ' ORDER BY n)) AS text
  FROM grouped WHERE cue_no > 0 GROUP BY lesson_id, cue_no
)
INSERT INTO lesson_cues (lesson_id, position, start, "end", text)
SELECT lesson_id, position, start, "end", text FROM (
  SELECT lesson_id, cue_no - 1 AS position, start,
         coalesce(lead(start) OVER (PARTITION BY lesson_id ORDER BY cue_no),
                  CASE WHEN audio_duration > start THEN audio_duration::double precision END,
                  start + 5) AS "end",
         regexp_replace(text, '\s+', ' ', 'g') AS text
  FROM cues
) timed WHERE text <> '';
--> statement-breakpoint
UPDATE lessons SET transcript = '' WHERE id IN (SELECT DISTINCT lesson_id FROM lesson_cues);
