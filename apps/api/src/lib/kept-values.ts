import type { ChangeBus, ChangeTopic } from "./change-bus";

/**
 * Values computed from the database and kept in memory by key until one of the changes they
 * depend on is announced (in any process, through the change bus; `*` drops them too). A value
 * whose computation raced a change (the bus's epoch moved meanwhile) is returned but not kept.
 * Callers must not change what they get: the same object answers every later read.
 */
export function createKeptValues<V>(opts: {
  changes: ChangeBus;
  droppedBy: readonly ChangeTopic[];
  maxEntries?: number;
}) {
  const entries = new Map<string, V>();
  const maxEntries = opts.maxEntries ?? 500;
  const drops = new Set<ChangeTopic>(["*", ...opts.droppedBy]);
  opts.changes.subscribe((topic) => {
    if (drops.has(topic)) entries.clear();
  });
  return {
    async get(key: string, load: () => Promise<V>): Promise<V> {
      const hit = entries.get(key);
      if (hit !== undefined) return hit;
      const epoch = opts.changes.epoch;
      const value = await load();
      if (opts.changes.epoch === epoch) {
        if (entries.size >= maxEntries) entries.clear();
        entries.set(key, value);
      }
      return value;
    },
  };
}
