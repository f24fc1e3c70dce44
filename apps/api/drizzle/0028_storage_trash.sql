CREATE TABLE "storage_trash" (
	"key" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "line_recordings_storage_key_idx" ON "line_recordings" USING btree ("storage_key");