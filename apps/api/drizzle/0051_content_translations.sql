-- Texts of courses, lessons, events and plans in the locales beyond French and English (the
-- `<field>_<locale>` fields of the API), keyed by locale: `{"es": {"title": "…"}}`. Starts empty:
-- no row had a Spanish text before (lines keep theirs in lesson_cues.translation_es).
ALTER TABLE "courses" ADD COLUMN "translations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "translations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "lessons" ADD COLUMN "translations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "translations" jsonb DEFAULT '{}'::jsonb NOT NULL;