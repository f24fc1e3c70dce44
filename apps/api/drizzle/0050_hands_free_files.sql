CREATE TABLE "hands_free_files" (
	"user_id" uuid NOT NULL,
	"day_start" timestamp with time zone NOT NULL,
	"variant" text NOT NULL,
	"storage_key" text NOT NULL,
	"size" integer NOT NULL,
	"seconds" double precision NOT NULL,
	"mode" text NOT NULL,
	"items" integer NOT NULL,
	"lesson_ids" uuid[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hands_free_files_user_id_day_start_variant_pk" PRIMARY KEY("user_id","day_start","variant")
);
--> statement-breakpoint
ALTER TABLE "hands_free_files" ADD CONSTRAINT "hands_free_files_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hands_free_files_day_idx" ON "hands_free_files" USING btree ("day_start");--> statement-breakpoint
CREATE INDEX "hands_free_files_storage_key_idx" ON "hands_free_files" USING btree ("storage_key");