CREATE TABLE "glossary_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"course_id" uuid NOT NULL,
	"term" text NOT NULL,
	"term_key" text NOT NULL,
	"meaning_fr" text DEFAULT '' NOT NULL,
	"meaning_en" text DEFAULT '' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "review_cards_user_cue_key";--> statement-breakpoint
ALTER TABLE "review_cards" ADD COLUMN "word" text;--> statement-breakpoint
ALTER TABLE "review_cards" ADD COLUMN "word_language" text;--> statement-breakpoint
ALTER TABLE "review_cards" ADD COLUMN "word_meaning_fr" text;--> statement-breakpoint
ALTER TABLE "review_cards" ADD COLUMN "word_meaning_en" text;--> statement-breakpoint
ALTER TABLE "glossary_entries" ADD CONSTRAINT "glossary_entries_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "glossary_entries_course_term_key" ON "glossary_entries" USING btree ("course_id","term_key");--> statement-breakpoint
CREATE UNIQUE INDEX "review_cards_user_word_key" ON "review_cards" USING btree ("user_id","word_language","word") WHERE "review_cards"."word" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "review_cards_user_cue_key" ON "review_cards" USING btree ("user_id","cue_id") WHERE "review_cards"."word" is null;