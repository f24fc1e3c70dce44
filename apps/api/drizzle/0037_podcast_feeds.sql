CREATE TABLE "podcast_feeds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"rotated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "podcast_feeds" ADD CONSTRAINT "podcast_feeds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "podcast_feeds_user_key" ON "podcast_feeds" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "podcast_feeds_token_key" ON "podcast_feeds" USING btree ("token_hash");