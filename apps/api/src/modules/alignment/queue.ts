import type { AlignmentJob } from "@parlons/contract";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type AlignedLineValue, alignmentJobs } from "../../db/schema/alignment";
import { conflict, isUniqueViolation } from "../../lib/errors";
import { type AlignmentEvent, transition } from "./job-state";

export type AlignmentJobRow = typeof alignmentJobs.$inferSelect;
export type NewAlignmentJob =
  | {
      kind?: "align";
      lessonId: string;
      apply: "merge" | "replace";
      lang: "fr" | "en" | "es";
      script: string[];
    }
  | { kind: "propose"; lessonId: string; apply: "keep" | "replace"; lang: "fr" | "en" | "es"; script: [] };

export function presentJob(row: AlignmentJobRow): AlignmentJob {
  return {
    id: row.id,
    lesson_id: row.lessonId,
    kind: row.kind,
    status: row.status,
    progress: row.progress,
    apply: row.apply,
    lang: row.lang,
    mode: row.mode ?? null,
    elapsed: row.elapsedMs === null ? null : Math.round(row.elapsedMs) / 1000,
    lines: row.lines,
    error: row.errorCode ? { code: row.errorCode, message: row.errorMessage ?? "" } : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/**
 * The alignment jobs' rows: queued by the route, claimed by the job (FOR UPDATE SKIP LOCKED, so
 * processes sharing the database never run one twice), moved by the states of job-state.ts; each
 * write is conditional on the status it moves from, so that a late write never undoes a later one.
 */
export function createAlignmentQueue(db: Db) {
  /** Applies `event` to the job as stored; the row after it, or null when it does not apply. */
  async function move(
    row: AlignmentJobRow,
    event: AlignmentEvent,
    extra: Partial<AlignmentJobRow> = {},
  ): Promise<AlignmentJobRow | null> {
    const { patch, lost } = transition(row, event);
    if (!patch) return null;
    const lostFields = lost
      ? {
          errorCode: "ALIGNMENT_FAILED",
          errorMessage: "The alignment was interrupted (the server restarted)",
        }
      : {};
    const [next] = await db
      .update(alignmentJobs)
      .set({ ...patch, ...lostFields, ...extra, updatedAt: new Date() })
      .where(and(eq(alignmentJobs.id, row.id), eq(alignmentJobs.status, row.status)))
      .returning();
    return next ?? null;
  }

  /** Fails the queued or running jobs (of one lesson, or all) that were lost with their process. */
  async function sweep(now: Date, lessonId?: string): Promise<number> {
    const active = await db
      .select()
      .from(alignmentJobs)
      .where(
        and(
          inArray(alignmentJobs.status, ["queued", "running"]),
          lessonId ? eq(alignmentJobs.lessonId, lessonId) : undefined,
        ),
      );
    let failed = 0;
    for (const row of active) if (await move(row, { type: "check", now })) failed++;
    return failed;
  }

  return {
    move,
    sweep,

    /** Queues an alignment (or a proposal); 409 ALIGNMENT_RUNNING while one of the lesson is queued or running. */
    async enqueue(job: NewAlignmentJob): Promise<AlignmentJobRow> {
      await sweep(new Date(), job.lessonId);
      try {
        const [row] = await db.insert(alignmentJobs).values(job).returning();
        return row as AlignmentJobRow;
      } catch (err) {
        if (isUniqueViolation(err))
          throw conflict("This lesson is already being aligned: wait for it to end", "ALIGNMENT_RUNNING");
        throw err;
      }
    },

    /** The oldest queued job, now running here; null when none is waiting. */
    async claim(): Promise<AlignmentJobRow | null> {
      const [row] = await db
        .update(alignmentJobs)
        .set({ status: "running", progress: 0, updatedAt: new Date() })
        .where(
          eq(
            alignmentJobs.id,
            sql`(select ${alignmentJobs.id} from ${alignmentJobs} where ${alignmentJobs.status} = 'queued'
                 order by ${alignmentJobs.createdAt} limit 1 for update skip locked)`,
          ),
        )
        .returning();
      return row ?? null;
    },

    done(
      row: AlignmentJobRow,
      result: { mode: "signal" | "synthesis"; elapsedMs: number; lines: AlignedLineValue[] },
    ) {
      return move(row, { type: "done" }, result);
    },

    fail(row: AlignmentJobRow, code: string, message: string) {
      return move(row, { type: "fail" }, { errorCode: code, errorMessage: message.slice(0, 500) });
    },

    async get(id: string): Promise<AlignmentJobRow | null> {
      const [row] = await db.select().from(alignmentJobs).where(eq(alignmentJobs.id, id));
      return row ?? null;
    },

    /** The lesson's latest alignment, or null. */
    async latest(lessonId: string): Promise<AlignmentJobRow | null> {
      const [row] = await db
        .select()
        .from(alignmentJobs)
        .where(eq(alignmentJobs.lessonId, lessonId))
        .orderBy(desc(alignmentJobs.createdAt))
        .limit(1);
      return row ?? null;
    },
  };
}
export type AlignmentQueue = ReturnType<typeof createAlignmentQueue>;
