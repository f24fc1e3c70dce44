import type { HandsFreeGradesBody } from "@parlons/contract";
import { createOutbox } from "@/lib/outbox";

/** A hands-free session's grades, told apart by its first grade id (each made once per session). */
export function handsFreeBatchId(body: HandsFreeGradesBody): string {
  return body.grades[0]?.grade_id ?? "";
}

/**
 * Hands-free sessions whose grades the server has not accepted yet (lib/outbox.ts): a session
 * heard offline (a downloaded lesson's lines) is sent when the connection returns, each grade once.
 */
export const handsFreeOutbox = createOutbox<HandsFreeGradesBody>("parlons.handsFreeOutbox", handsFreeBatchId);
