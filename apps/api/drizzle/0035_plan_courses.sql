CREATE TABLE "plan_courses" (
	"plan_id" uuid NOT NULL,
	"course_id" uuid NOT NULL,
	CONSTRAINT "plan_courses_plan_id_course_id_pk" PRIMARY KEY("plan_id","course_id")
);
--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "scope" text DEFAULT 'all' NOT NULL;--> statement-breakpoint
ALTER TABLE "plan_courses" ADD CONSTRAINT "plan_courses_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_courses" ADD CONSTRAINT "plan_courses_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "plan_courses_course_idx" ON "plan_courses" USING btree ("course_id");