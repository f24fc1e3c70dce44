import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Database } from "../db/client";

/**
 * What a write tells every API process, so that what they keep in memory follows:
 * - `courses`: courses and lessons (lists, course pages, lesson lists, lesson counts);
 * - `plans`: plans (the public list, and whether a plan is premium);
 * - `settings`: the settings row (public settings, audio source, CSP);
 * - `roles`: roles and their permissions (every principal);
 * - `user:<id>`: a user's status, roles, plan, subscription, password or sessions;
 * - `session:<id>`: one session ended (logout, refresh token reuse);
 * - `progress:<userId>`: a learner's listening progress;
 * - `events`: events and their registrations (places, waiting lists, bookings, notifications of them);
 * - `notifications:<userId>`: a user's notifications (one written outside a transaction, read marks);
 * - `*`: everything (sent locally when the bus reconnects: messages may have been lost).
 */
export type ChangeTopic =
  | "courses"
  | "plans"
  | "settings"
  | "roles"
  | "*"
  | `user:${string}`
  | `session:${string}`
  | `progress:${string}`
  | "events"
  | `notifications:${string}`;

type ChangeListener = (topic: ChangeTopic) => void;

export interface ChangeBus {
  readonly kind: "memory" | "postgres" | "redis";
  /**
   * Applies the change in this process at once, then tells the others. Call it after the
   * transaction that made the change committed: a process that reads before the commit would
   * otherwise keep the old state.
   */
  publish(...topics: ChangeTopic[]): void;
  subscribe(listener: ChangeListener): () => void;
  /**
   * Bumped by every change this process learns of. A value computed from the database is kept
   * only when the epoch did not move while it was computed (a change may have raced the read).
   */
  readonly epoch: number;
  close(): Promise<void>;
}

interface Log {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/** The part every transport shares: listeners, epoch, the origin that skips our own echoes. */
function createCore() {
  const origin = randomUUID();
  const listeners = new Set<ChangeListener>();
  let epoch = 0;
  const deliver = (topics: ChangeTopic[]) => {
    epoch += 1;
    for (const topic of topics) {
      for (const listener of listeners) listener(topic);
    }
  };
  return {
    deliver,
    /** A message from the transport: delivered unless it is our own echo (or garbage). */
    receive(message: string) {
      const [from, ...topics] = message.split(" ");
      if (!from || from === origin || topics.length === 0) return;
      deliver(topics as ChangeTopic[]);
    },
    /** The bus: `send` carries an encoded message to the other processes. */
    bus(
      kind: ChangeBus["kind"],
      send: (message: string, topics: ChangeTopic[]) => void,
      close: () => Promise<void>,
    ): ChangeBus {
      return {
        kind,
        get epoch() {
          return epoch;
        },
        subscribe(listener) {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
        publish(...topics) {
          if (topics.length === 0) return;
          deliver(topics);
          send(`${origin} ${topics.join(" ")}`, topics);
        },
        close,
      };
    },
  };
}

// PGlite is one process: the apps that share one PGlite database share one in-memory hub.
const hubs = new WeakMap<Database, Set<(message: string) => void>>();

function memoryBus(database: Database): ChangeBus {
  const core = createCore();
  let hub = hubs.get(database);
  if (!hub) {
    hub = new Set();
    hubs.set(database, hub);
  }
  const receive = core.receive;
  hub.add(receive);
  return core.bus(
    "memory",
    (message) => {
      for (const other of hubs.get(database) ?? []) if (other !== receive) other(message);
    },
    async () => {
      hubs.get(database)?.delete(receive);
    },
  );
}

const RETRY_MS = 1000;

/** PostgreSQL LISTEN on a dedicated connection; NOTIFY through the pool. */
async function postgresBus(database: Database, url: string, channel: string, log: Log): Promise<ChangeBus> {
  const core = createCore();
  const { default: pg } = await import("pg");
  let client: InstanceType<typeof pg.Client> | null = null;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let lostBefore = false;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    next.on("notification", (n) => core.receive(n.payload ?? ""));
    next.on("error", (err) => {
      log.warn({ err }, "change bus: LISTEN connection lost; reconnecting");
      retry(next);
    });
    next.on("end", () => retry(next));
    await next.connect();
    await next.query(`LISTEN "${channel}"`);
    client = next;
    // messages sent while we were away are lost: forget everything kept in memory
    if (lostBefore) core.deliver(["*"]);
  };
  const retry = (dead: InstanceType<typeof pg.Client>) => {
    if (closed || client !== dead) return;
    client = null;
    lostBefore = true;
    dead.end().catch(() => undefined);
    core.deliver(["*"]);
    timer = setTimeout(function again() {
      connect().catch((err: unknown) => {
        log.warn({ err }, "change bus: LISTEN reconnection failed; trying again");
        timer = setTimeout(again, RETRY_MS);
      });
    }, RETRY_MS);
  };
  await connect();

  return core.bus(
    "postgres",
    (message, topics) => {
      database.db.execute(sql`select pg_notify(${channel}, ${message})`).catch((err: unknown) => {
        log.warn({ err, topics }, "change bus: NOTIFY failed; other processes keep their copy");
      });
    },
    async () => {
      closed = true;
      clearTimeout(timer);
      await client?.end().catch(() => undefined);
    },
  );
}

/** Redis pub/sub: one subscriber connection, one publisher connection. */
async function redisBus(url: string, channel: string, log: Log): Promise<ChangeBus> {
  const core = createCore();
  const { Redis } = await import("ioredis");
  const options = { connectTimeout: 2000, lazyConnect: true };
  const subscriber = new Redis(url, options);
  const publisher = new Redis(url, { ...options, maxRetriesPerRequest: 1 });
  let lost = false;
  subscriber.on("message", (_channel: string, message: string) => core.receive(message));
  subscriber.on("error", (err: unknown) => log.warn({ err }, "change bus: Redis subscriber error"));
  publisher.on("error", (err: unknown) => log.warn({ err }, "change bus: Redis publisher error"));
  subscriber.on("close", () => {
    if (lost) return;
    lost = true;
    core.deliver(["*"]);
  });
  subscriber.on("ready", () => {
    if (!lost) return;
    lost = false;
    // ioredis subscribes again by itself; what was published meanwhile is lost
    core.deliver(["*"]);
  });
  await subscriber.connect();
  await subscriber.subscribe(channel);
  await publisher.connect();
  return core.bus(
    "redis",
    (message, topics) => {
      publisher.publish(channel, message).catch((err: unknown) => {
        log.warn({ err, topics }, "change bus: PUBLISH failed; other processes keep their copy");
      });
    },
    async () => {
      lost = true;
      subscriber.disconnect();
      publisher.disconnect();
    },
  );
}

/**
 * The change bus of this process: Redis pub/sub when REDIS_URL is set, else PostgreSQL
 * LISTEN/NOTIFY, else (PGlite, one process) in memory.
 */
export async function createChangeBus(opts: {
  database: Database;
  redisUrl?: string;
  channel: string;
  log: Log;
}): Promise<ChangeBus> {
  if (opts.redisUrl) return redisBus(opts.redisUrl, opts.channel, opts.log);
  if (opts.database.kind === "postgres" && opts.database.url) {
    return postgresBus(opts.database, opts.database.url, opts.channel, opts.log);
  }
  return memoryBus(opts.database);
}

// biome-ignore lint/suspicious/noExplicitAny: matches any method signature; the topics function gets its real parameters
type AnyMethod = (...args: any[]) => Promise<unknown>;
type AsyncMethodNames<S> = { [K in keyof S]: S[K] extends AnyMethod ? K : never }[keyof S];
export type ChangeSpec<S> = {
  [K in AsyncMethodNames<S>]?: S[K] extends (...args: infer A) => Promise<unknown>
    ? readonly ChangeTopic[] | ((...args: A) => readonly ChangeTopic[])
    : never;
};

/**
 * The service with the named methods wrapped: once a call settles (its transaction committed or
 * rolled back), the topics are published. A topics function returning [] publishes nothing (a
 * call inside the caller's transaction: the caller publishes after its commit).
 */
export function announcing<S extends object>(service: S, changes: ChangeBus, spec: ChangeSpec<S>): S {
  const wrapped: Record<string, unknown> = { ...(service as Record<string, unknown>) };
  type Topics = readonly ChangeTopic[] | ((...args: unknown[]) => readonly ChangeTopic[]);
  for (const [name, topics] of Object.entries(spec) as [string, Topics][]) {
    const method = (service as Record<string, AnyMethod>)[name];
    if (!method) continue;
    wrapped[name] = async (...args: unknown[]) => {
      try {
        return await method.apply(service, args);
      } finally {
        changes.publish(...(typeof topics === "function" ? topics(...args) : topics));
      }
    };
  }
  return wrapped as S;
}
