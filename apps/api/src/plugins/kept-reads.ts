import type { IncomingMessage } from "node:http";
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from "fastify";
import fp from "fastify-plugin";
import type { ZodType } from "zod";
import type { ChangeBus, ChangeTopic } from "../lib/change-bus";
import {
  CACHE_CONTROL,
  createResponseCache,
  jsonBody,
  PRIVATE_CACHE_CONTROL,
  sendCached,
} from "../lib/response-cache";
import type { AccessRule } from "./access-rule";
import type { FastAnswer } from "./fast-path";

/** Changes about one reader, told as `<topic>:<their id>` (lib/change-bus.ts). */
type ReaderTopic = "progress" | "notifications";

/**
 * A kept read, declared in the route's config beside its access rule (`config: { access, keep }`):
 * its answer is kept serialised in memory until one of the changes it names is announced (in any
 * process, through the change bus), and answered before routing (plugins/fast-path.ts) once its URL
 * has been seen. The route's handler only returns its payload: it must not touch the reply, and it
 * may be called again without a request of its own after a change (to compute the answer anew).
 */
interface KeptRead {
  /**
   * Whose answer it is: `everyone`'s (the same bytes for every caller: the route's access rule is
   * public), or one per `reader` (each signed-in reader, by their id and what their plan opens, and
   * one for all visitors when the route lets them in).
   */
  per: "everyone" | "reader";
  /**
   * The changes that drop the kept answer. A reader's answers are dropped too by a change to their
   * account (`user:<id>`), to `roles` and to `plans` (who they are and what their plan opens).
   */
  droppedBy: readonly ChangeTopic[];
  /** Changes about the reader that drop their answers, as `<topic>:<reader id>` (progress, notifications). */
  droppedByReader?: readonly ReaderTopic[];
  /**
   * The period the answer belongs to (a window of signed media URLs, the current week): an answer
   * of another period is computed anew. Called for every read: cheap.
   */
  period?: () => string | number;
  /** Whether this payload may be kept (every 200 by default); one that may not is sent as returned. */
  when?: (payload: never) => boolean;
  /**
   * Whether a GET of a URL seen before is answered before routing (plugins/fast-path.ts), with
   * neither a log line nor the route's metrics: by default the answers for everyone are, the
   * answers per reader are not (a route opts in: the lesson list, every course page and player).
   */
  beforeRouting?: boolean;
  /** Its name among the answers before routing in /metrics: `public`, or the route's first tag by default. */
  name?: string;
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** Kept in memory and answered before routing (plugins/kept-reads.ts); nothing kept without it. */
    keep?: KeptRead;
  }
}

/** A declared kept read as registered: what the answers before routing need of it. */
interface Declared {
  keep: KeptRead;
  /** Whether a request without a token is answered (the route lets visitors in). */
  visitors: boolean;
}

interface Alias {
  read: Declared;
  /** The key of the route and its parameters, without the reader and the period. */
  base: string;
}

type Reader = { principal: { id: string }; access: string };

/**
 * The kept answers of every declared read, and the read the fast path makes of them: `alias`
 * remembers which request URL gives which route and parameters (URL → route never changes, only
 * the answers do), the reader of a token comes from memory (`readerFromMemory`, plugins/auth.ts).
 */
export function createKeptReads(deps: {
  changes: ChangeBus;
  readerFromMemory: (authorization: string) => Reader | undefined;
  maxAliases?: number;
}) {
  /** The answers for everyone: recently used ones are computed again at once after a change. */
  const everyone = createResponseCache<FastAnswer>({ changes: deps.changes });
  /** Each reader's answers: computed again when they come back. */
  const readers = createResponseCache<FastAnswer>({ changes: deps.changes, maxEntries: 30_000, rewarm: 0 });
  const aliases = new Map<string, Alias>();
  const maxAliases = deps.maxAliases ?? 10_000;

  function keyOf(read: Declared, base: string, reader: string | undefined): string {
    const period = read.keep.period;
    const key = reader === undefined ? base : `${base}|${reader}`;
    return period === undefined ? key : `${key}|${period()}`;
  }

  return {
    everyone,
    readers,
    keyOf,
    alias(url: string, read: Declared, base: string) {
      const known = aliases.get(url);
      if (known?.read === read && known.base === base) return;
      if (aliases.size >= maxAliases) aliases.clear();
      aliases.set(url, { read, base });
    },
    /** The kept answer of a GET under /api/v1/ when everything it depends on is in memory now. */
    read(req: IncomingMessage, url: string): FastAnswer | undefined {
      const alias = aliases.get(url);
      if (alias === undefined) return undefined;
      const { read, base } = alias;
      const header = req.headers.authorization;
      if (read.keep.per === "everyone") {
        // a token is the route's to check (a bad one is 401 there)
        return header === undefined ? everyone.peek(keyOf(read, base, undefined)) : undefined;
      }
      let reader = "-";
      if (header !== undefined) {
        const found = deps.readerFromMemory(header);
        if (found === undefined) return undefined;
        reader = `${found.principal.id}:${found.access}`;
      } else if (!read.visitors) return undefined;
      return readers.peek(keyOf(read, base, reader));
    },
    close() {
      everyone.close();
      readers.close();
      aliases.clear();
    },
  };
}
type KeptReads = ReturnType<typeof createKeptReads>;

const WRAPPED = Symbol("kept read");

/** Why a route cannot declare `keep` as it is, or undefined. */
function misfit(route: RouteOptions, keep: KeptRead, rule: AccessRule | undefined): string | undefined {
  if (route.schema?.body) return "it reads a body";
  if (keep.per === "everyone" && rule?.kind !== "public")
    return "an answer for everyone needs a public route";
  if (keep.per === "reader" && rule?.kind !== "signedIn" && !(rule?.kind === "public" && rule.identify))
    return "an answer per reader needs access.signedIn or access.publicViewer";
  return undefined;
}

/**
 * Serves the kept reads from their declarations: registered in the `/api` scope after the access
 * plugin, it wraps the handler of every route declaring `config.keep`. A read is answered from
 * memory (ETag, 304 on If-None-Match, `Cache-Control: no-cache`, `private` per reader) or computed
 * once however many ask at the same time; a read that raced a change is never kept.
 */
export default fp(
  async (app: FastifyInstance, opts: { kept: KeptReads }) => {
    const { kept } = opts;
    app.addHook("onRoute", (route: RouteOptions) => {
      const keep = route.config?.keep;
      const handler = route.handler as typeof route.handler & { [WRAPPED]?: true };
      if (!keep || handler[WRAPPED]) return;
      const rule = route.config?.access;
      const schema = (route.schema?.response as Record<number, ZodType> | undefined)?.[200];
      const wrong = schema === undefined ? "it has no 200 response schema" : misfit(route, keep, rule);
      if (wrong || schema === undefined)
        throw new Error(`${route.method} ${route.url} declares config.keep, but ${wrong}`);
      const read: Declared = { keep, visitors: rule?.kind === "public" };
      const beforeRouting = keep.beforeRouting ?? keep.per === "everyone";
      const method = ([] as string[]).concat(route.method)[0];
      const routeKey = `${method === "HEAD" ? "GET" : method} ${route.url}`;
      const queryMatters = route.schema?.querystring !== undefined;
      const store = keep.per === "everyone" ? kept.everyone : kept.readers;
      const bodyOf = jsonBody(schema, route.url);
      const cacheControl = keep.per === "everyone" ? CACHE_CONTROL : PRIVATE_CACHE_CONTROL;
      const name = keep.name ?? (keep.per === "everyone" ? "public" : (route.schema?.tags?.[0] ?? route.url));
      const topicsOf = (userId: string | undefined): readonly ChangeTopic[] =>
        userId === undefined
          ? keep.droppedBy
          : [
              ...keep.droppedBy,
              "roles",
              "plans",
              `user:${userId}`,
              ...(keep.droppedByReader ?? []).map((topic) => `${topic}:${userId}` as const),
            ];

      async function keptRead(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
        let reader: string | undefined;
        const principal = request.principal;
        if (keep?.per === "reader") {
          reader = principal
            ? `${principal.id}:${await app.deps.services.principals.accessOf(principal)}`
            : "-";
        }
        const base = `${routeKey} ${JSON.stringify(request.params)}${queryMatters ? JSON.stringify(request.query) : ""}`;
        let ran = false;
        let own: unknown;
        const load = async (): Promise<FastAnswer | null> => {
          ran = true;
          own = await handler.call(this, request, reply);
          if (keep?.when && !keep.when(own as never)) return null;
          return { ...bodyOf(own), cacheControl, name };
        };
        let answer: FastAnswer | null;
        try {
          answer = await store.get(kept.keyOf(read, base, reader), topicsOf(reader && principal?.id), load);
        } catch (err) {
          // another request's computation failed: this one answers for itself
          if (ran) throw err;
          return handler.call(this, request, reply);
        }
        // not to be kept (another reader's answer, or one that may not be kept): answered as computed
        if (answer === null) return ran ? own : handler.call(this, request, reply);
        if (beforeRouting && request.method === "GET") kept.alias(request.url, read, base);
        return sendCached(request, reply, answer, answer.cacheControl);
      }
      route.handler = Object.assign(keptRead, { [WRAPPED]: true as const });
    });
  },
  { name: "kept-reads", dependencies: ["access"] },
);
