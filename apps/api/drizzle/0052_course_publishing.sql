-- New lessons start as drafts; the lessons that exist keep what they have (SET DEFAULT changes no row).
-- A course may be scheduled to go live at publish_at (the publish job makes it active then).
ALTER TABLE "lessons" ALTER COLUMN "active" SET DEFAULT false;--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "publish_at" timestamp with time zone;