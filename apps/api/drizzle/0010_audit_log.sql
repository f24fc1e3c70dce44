ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_actor_id_users_id_fk";
--> statement-breakpoint
DROP INDEX "audit_log_created_idx";--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "actor_email" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "before" jsonb;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "after" jsonb;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "ip" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "user_agent" text;--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_action_idx" ON "audit_log" USING btree ("action","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_target_idx" ON "audit_log" USING btree ("target_type","target_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_created_idx" ON "audit_log" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
UPDATE "audit_log" SET
  "actor_email" = (SELECT "email" FROM "users" WHERE "users"."id" = "audit_log"."actor_id"),
  "before" = CASE
    WHEN "action" = 'settings.update' AND jsonb_typeof("data"->'changes') = 'object'
      THEN (SELECT jsonb_object_agg(c.key, c.value->'from') FROM jsonb_each("data"->'changes') c)
    WHEN "data" ? 'from' AND "data" ? 'to' THEN "data"->'from'
    WHEN "action" LIKE '%.delete' OR "action" LIKE '%.cancel' THEN "data"
  END,
  "after" = CASE
    WHEN "action" = 'settings.update' AND jsonb_typeof("data"->'changes') = 'object'
      THEN (SELECT jsonb_object_agg(c.key, c.value->'to') FROM jsonb_each("data"->'changes') c)
    WHEN "data" ? 'from' AND "data" ? 'to' THEN "data"->'to'
    WHEN "action" LIKE '%.delete' OR "action" LIKE '%.cancel' THEN NULL
    WHEN "action" = 'events.update' AND "data" ? 'changes' THEN "data"->'changes'
    ELSE "data"
  END
WHERE "data" IS NOT NULL OR "actor_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" DROP COLUMN "data";--> statement-breakpoint
CREATE FUNCTION "audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: entries cannot be changed or deleted'
    USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "audit_log_append_only" BEFORE UPDATE OR DELETE ON "audit_log"
  FOR EACH ROW EXECUTE FUNCTION "audit_log_append_only"();
