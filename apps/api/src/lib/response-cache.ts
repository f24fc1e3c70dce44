import { createHash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { serializerCompiler } from "fastify-type-provider-zod";
import type { ZodType } from "zod";
import type { ChangeBus, ChangeTopic } from "./change-bus";

/**
 * A response body kept serialised, with its strong validator. Kept as a string: Node writes a
 * string body in the same write as the head (one `write` instead of a `writev` of two buffers):
 * 5–9 % more answers a second in a bare `node:http` server (docs/performance.md).
 */
export interface CachedBody {
  body: string;
  /** Its length in bytes (UTF-8). */
  length: number;
  etag: string;
}

/** A computed answer: a JSON body, or null: nothing to keep (the caller answers without the cache). */
export type CachedAnswer<B extends CachedBody = CachedBody> = B | null;

interface Entry<B extends CachedBody> {
  answer: B;
  topics: readonly ChangeTopic[];
  load: () => Promise<CachedAnswer<B>>;
}

interface Pending<B extends CachedBody> {
  promise: Promise<CachedAnswer<B>>;
  topics: readonly ChangeTopic[];
}

export const JSON_TYPE = "application/json; charset=utf-8";
/** Browsers may keep the body but must ask again (If-None-Match) before using it. */
export const CACHE_CONTROL = "no-cache";
/** The same for an answer about the signed-in reader: kept by their browser only, never by a shared cache. */
export const PRIVATE_CACHE_CONTROL = "private, no-cache";

/** Serialises a payload exactly as the route's response schema would, and tags it. */
export function jsonBody<T>(schema: ZodType<T>, url: string): (payload: T) => CachedBody {
  const serialize = serializerCompiler({ schema, method: "GET", url, httpStatus: "200" }) as (
    data: unknown,
  ) => string;
  return (payload) => {
    const body = serialize(payload);
    const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
    return { body, length: Buffer.byteLength(body), etag };
  };
}

/** Whether an If-None-Match header names this entity tag (weak comparison, RFC 9110 §13.1.2). */
export function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  for (const part of ifNoneMatch.split(",")) {
    const tag = part.trim();
    if (tag === etag || tag === `W/${etag}`) return true;
  }
  return false;
}

/** Sends a cached body through Fastify: ETag, 304 on a matching If-None-Match, the bytes otherwise. */
export function sendCached(
  request: FastifyRequest,
  reply: FastifyReply,
  cached: CachedBody,
  cacheControl = CACHE_CONTROL,
) {
  reply.header("etag", cached.etag).header("cache-control", cacheControl);
  if (notModified(request.headers["if-none-match"], cached.etag)) return reply.code(304).send();
  return reply.header("content-type", JSON_TYPE).send(cached.body);
}

/**
 * Answers kept serialised in memory, computed from the database once per change:
 * each entry names the change topics it depends on; a change drops those entries in every
 * process (through the change bus) and computes the recently used ones again at once, so the
 * next visitor is served from memory. A read that raced a change is never kept.
 *
 * Routes do not use it themselves: they declare what they keep (plugins/kept-reads.ts).
 */
export function createResponseCache<B extends CachedBody = CachedBody>(opts: {
  changes: ChangeBus;
  maxEntries?: number;
  rewarm?: number;
}) {
  const maxEntries = opts.maxEntries ?? 2000;
  const rewarm = opts.rewarm ?? 32;
  const entries = new Map<string, Entry<B>>();
  // which entries each topic drops: a user's change must not walk every user's entries
  const byTopic = new Map<ChangeTopic, Set<string>>();
  const pending = new Map<string, Pending<B>>();
  let closed = false;
  /** Answers from memory and computed ones, for /metrics (the fast path counts its own). */
  const stats = { hits: 0, misses: 0 };

  function keep(key: string, entry: Entry<B>) {
    if (entries.size >= maxEntries) {
      const oldest = entries.keys().next().value;
      if (oldest !== undefined) drop(oldest);
    }
    entries.set(key, entry);
    for (const topic of entry.topics) {
      let keys = byTopic.get(topic);
      if (!keys) {
        keys = new Set();
        byTopic.set(topic, keys);
      }
      keys.add(key);
    }
  }

  function drop(key: string): Entry<B> | undefined {
    const entry = entries.get(key);
    if (!entry) return undefined;
    entries.delete(key);
    for (const topic of entry.topics) {
      const keys = byTopic.get(topic);
      keys?.delete(key);
      if (keys?.size === 0) byTopic.delete(topic);
    }
    return entry;
  }

  function fetch(key: string, topics: readonly ChangeTopic[], load: () => Promise<CachedAnswer<B>>) {
    const existing = pending.get(key);
    if (existing) return existing.promise;
    const slot: Pending<B> = {
      topics,
      promise: load().then((answer) => {
        // dropped meanwhile by a change: serve this answer to whoever waited, keep nothing
        if (pending.get(key) === slot) {
          pending.delete(key);
          if (!closed && answer !== null) keep(key, { answer, topics, load });
        }
        return answer;
      }),
    };
    slot.promise.catch(() => {
      if (pending.get(key) === slot) pending.delete(key);
    });
    pending.set(key, slot);
    return slot.promise;
  }

  const unsubscribe = opts.changes.subscribe((topic) => {
    const hit = (topics: readonly ChangeTopic[]) => topic === "*" || topics.includes(topic);
    const again: [string, Entry<B>][] = [];
    for (const key of topic === "*" ? [...entries.keys()] : [...(byTopic.get(topic) ?? [])]) {
      const entry = drop(key);
      if (entry) again.push([key, entry]);
    }
    for (const [key, slot] of pending) if (hit(slot.topics)) pending.delete(key);
    // the most recently computed ones are computed again now, not at the next visitor's expense
    // (after the other listeners of this change ran: the settings service drops its copy too)
    queueMicrotask(() => {
      if (closed) return;
      for (const [key, entry] of rewarm > 0 ? again.slice(-rewarm) : []) {
        if (!entries.has(key)) fetch(key, entry.topics, entry.load).catch(() => undefined);
      }
    });
  });

  return {
    stats,
    /** The answer for `key`, from memory or computed (once, however many ask at the same time). */
    get(
      key: string,
      topics: readonly ChangeTopic[],
      load: () => Promise<CachedAnswer<B>>,
    ): Promise<CachedAnswer<B>> {
      const entry = entries.get(key);
      if (entry) {
        stats.hits += 1;
        return Promise.resolve(entry.answer);
      }
      stats.misses += 1;
      return fetch(key, topics, load);
    },

    /** The answer kept for `key` now, if any (no load, not counted: the fast path counts its own). */
    peek(key: string): B | undefined {
      return entries.get(key)?.answer;
    },

    close() {
      closed = true;
      unsubscribe();
      entries.clear();
      byTopic.clear();
      pending.clear();
    },
  };
}
