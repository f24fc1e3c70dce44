import type { ReviewGradeBody } from "@parlons/contract";
import { createOutbox } from "@/lib/outbox";

export { learnerStore, type OutboxStore, oneAtATime, type SendOutcome, sendOnce } from "@/lib/outbox";

/**
 * Grades not yet accepted by the server (lib/outbox.ts), each under the review id chosen when it
 * was made: a grade sent twice is graded once.
 */
export const gradesOutbox = createOutbox<ReviewGradeBody>("parlons.reviewOutbox", (grade) => grade.review_id);

export const pendingGrades = gradesOutbox.pending;
export const queueGrade = gradesOutbox.queue;
export const flushGrades = gradesOutbox.flush;
