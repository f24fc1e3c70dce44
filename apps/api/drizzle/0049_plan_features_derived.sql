-- The pricing page now derives each plan's list from what it opens (the free plan: its free
-- lessons, transcripts, repeat after me, review, downloads; a paid plan: what it adds). The lines
-- the install seeded that say the same, or that sold as premium what the free plan gives, go;
-- whatever staff wrote themselves stays.
UPDATE "plans" SET
  "features_en" = "features_en" - 'All lessons of all courses' - 'Transcripts and repeat-after-me mode',
  "features_fr" = "features_fr" - 'Toutes les leçons de tous les cours' - 'Transcriptions et mode « répétez après moi »'
WHERE "amount" > 0;
--> statement-breakpoint
UPDATE "plans" SET
  "features_en" = "features_en" - 'Free lessons of every course' - 'The learner''s audio player',
  "features_fr" = "features_fr" - 'Les leçons gratuites de chaque cours' - 'Le lecteur audio de l''apprenant'
WHERE "is_default";
