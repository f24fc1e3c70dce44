import type { HandsFreeGradesBody } from "@parlons/contract";
import { useCallback, useMemo, useRef, useState } from "react";
import { learnerStore, refusedForGood, type SendOutcome } from "@/lib/outbox";
import { useOutbox } from "@/lib/use-outbox";
import { sendHandsFreeGrades } from "../api/hands-free-api";
import { handsFreeBatchId, handsFreeOutbox } from "../lib/hands-free-outbox";

/** What became of a session's grades: accepted, kept for when the network returns, or refused. */
export type GradesState = "sent" | "queued" | "refused";

/**
 * A hands-free session's grades through their outbox: `send` keeps them and sends them now or,
 * offline, when the connection returns; `state` follows the last session sent from this page
 * (it turns "sent" once the browser is back online and the server took them).
 */
export function useHandsFreeGrades(userId: string) {
  const [state, setState] = useState<GradesState | null>(null);
  const last = useRef<string | null>(null);
  const refused = useRef(new Set<string>());
  const store = useMemo(() => learnerStore(localStorage, userId), [userId]);
  const sendQueued = useCallback(async (body: HandsFreeGradesBody): Promise<SendOutcome> => {
    try {
      await sendHandsFreeGrades(body);
      return "done";
    } catch (error) {
      if (!refusedForGood(error)) return "retry";
      refused.current.add(handsFreeBatchId(body));
      return "done";
    }
  }, []);
  const refresh = useCallback(() => {
    const id = last.current;
    if (!id) return;
    if (handsFreeOutbox.pending(store).some((body) => handsFreeBatchId(body) === id)) setState("queued");
    else setState(refused.current.has(id) ? "refused" : "sent");
  }, [store]);
  const { queue } = useOutbox(handsFreeOutbox, userId, sendQueued, refresh);
  const send = useCallback(
    async (body: HandsFreeGradesBody) => {
      last.current = handsFreeBatchId(body);
      await queue(body);
      refresh();
    },
    [queue, refresh],
  );
  const reset = useCallback(() => {
    last.current = null;
    setState(null);
  }, []);
  return { state, send, reset };
}
