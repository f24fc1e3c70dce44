import { useCallback, useEffect, useMemo } from "react";
import { learnerStore, type Outbox, oneAtATime, type SendOutcome } from "./outbox";
import { resumeOnline } from "./session";

/**
 * A learner's outbox (lib/outbox.ts) in this browser, sent when the page opens, after each item
 * queued and whenever the browser is back online (a session started offline is renewed first,
 * or its items would be refused unsigned). `onSent` runs after a pass that sent something.
 */
export function useOutbox<T>(
  outbox: Outbox<T>,
  userId: string,
  send: (item: T) => Promise<SendOutcome>,
  onSent?: () => void,
) {
  const store = useMemo(() => learnerStore(localStorage, userId), [userId]);
  const flushStore = useMemo(() => oneAtATime(() => outbox.flush(store, send)), [outbox, store, send]);
  const flush = useCallback(async () => {
    const sent = await flushStore();
    if (sent > 0) onSent?.();
    return sent;
  }, [flushStore, onSent]);
  useEffect(() => {
    void flush();
    const online = () => void resumeOnline().then(flush);
    window.addEventListener("online", online);
    return () => window.removeEventListener("online", online);
  }, [flush]);
  const queue = useCallback(
    (item: T) => {
      outbox.queue(store, item);
      return flush();
    },
    [outbox, store, flush],
  );
  return { queue, flush };
}
