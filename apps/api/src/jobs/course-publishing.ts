import type { AuditService } from "../modules/audit/service";
import type { CourseService } from "../modules/courses/service";
import { type Job, type JobOptions, startJob } from "./runner";

/**
 * Makes the courses scheduled for now live (started by server.ts): every 15 seconds each process
 * asks for the courses whose `publish_at` has come, checks each again and claims it by a
 * conditional write (CourseService.publishDue), so that one process publishes it and writes its
 * audit entry; the change it announces drops every process's kept course lists and pages, so
 * learners and the catalogue see the course within the interval of its time.
 */
export function startCoursePublishing(
  opts: JobOptions & { courses: Pick<CourseService, "publishDue">; audit: Pick<AuditService, "record"> },
): Job<number> {
  const { courses, audit, ...job } = opts;
  return startJob({
    ...job,
    name: "course-publishing",
    run: ({ now }) =>
      courses.publishDue(now ?? new Date(), ({ row, scheduledFor, problems }, tx) =>
        audit.record(
          {
            actor: null,
            action: problems ? "courses.schedule_failed" : "courses.publish",
            target: { type: "course", id: row.id, label: row.titleFr },
            before: { active: false, publish_at: scheduledFor.toISOString() },
            after: problems
              ? { active: false, publish_at: null, missing: problems }
              : { active: true, publish_at: null, scheduled: true },
          },
          tx,
        ),
      ),
    idle: 0,
    report: (published) => ({
      ...(published ? { message: "scheduled courses published", fields: { published } } : {}),
      items: { published },
    }),
    failed: "course publishing failed",
    everyMs: 15_000,
    firstMs: 5_000,
  });
}
