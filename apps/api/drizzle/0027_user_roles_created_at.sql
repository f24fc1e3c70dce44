ALTER TABLE "user_roles" ADD COLUMN "user_created_at" timestamp with time zone;--> statement-breakpoint
UPDATE "user_roles" SET "user_created_at" = "users"."created_at" FROM "users" WHERE "users"."id" = "user_roles"."user_id";--> statement-breakpoint
ALTER TABLE "user_roles" ALTER COLUMN "user_created_at" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "user_roles_role_created_idx" ON "user_roles" USING btree ("role_id","user_created_at" DESC NULLS FIRST,"user_id");
