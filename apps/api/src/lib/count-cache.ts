/**
 * Totals of large staff lists, reused for a few seconds. Counting 100,000 rows costs tens of
 * milliseconds on every page read; a total that large moving by a few rows for a few seconds
 * misleads nobody. Small totals (below `minRows`) are always counted afresh, so lists of
 * ordinary size stay exact; the owner clears the cache on its own writes.
 */
export function createCountCache(opts: { ttlMs: number; minRows: number; maxKeys?: number }) {
  const entries = new Map<string, { total: number; until: number }>();
  const maxKeys = opts.maxKeys ?? 500;
  return {
    async get(key: string, count: () => Promise<number>, now = Date.now()): Promise<number> {
      const hit = entries.get(key);
      if (hit && hit.until > now) return hit.total;
      const total = await count();
      if (total >= opts.minRows) {
        if (entries.size >= maxKeys) entries.clear();
        entries.set(key, { total, until: now + opts.ttlMs });
      } else {
        entries.delete(key);
      }
      return total;
    },
    clear() {
      entries.clear();
    },
  };
}
