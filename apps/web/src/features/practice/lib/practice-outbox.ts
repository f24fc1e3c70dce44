import type { PracticeResultBody } from "@parlons/contract";
import { createOutbox } from "@/lib/outbox";

/**
 * Results not yet accepted by the server (lib/outbox.ts), each under the result id chosen when it
 * was made: a session practised offline is sent when the connection returns, each result once.
 */
export const practiceOutbox = createOutbox<PracticeResultBody>(
  "parlons.practiceOutbox",
  (result) => result.result_id,
);
