import type { FastifyInstance } from "fastify";
import type { Redis } from "ioredis";
import type { Config } from "../config";
import type { Database } from "../db/client";
import type { Mailer } from "../integrations/mail/mailer";
import type { PaymentProviders } from "../integrations/payments";
import type { ChangeBus, ChangeTopic } from "./change-bus";
import type { Clock } from "./clock";
import type { Metrics } from "./metrics";

/** What every module is built with: the process's configuration and its shared infrastructure. */
export interface ModuleContext {
  app: FastifyInstance;
  config: Config;
  database: Database;
  db: Database["db"];
  mailer: Mailer;
  providers: PaymentProviders;
  changes: ChangeBus;
  metrics: Metrics;
  clock: Clock;
  redis: Redis | undefined;
}

/**
 * The kinds of change a module may announce on the change bus (lib/change-bus.ts): a topic's name
 * before its colon (`user` for `user:<id>`, `session` for `session:<id>`).
 */
type ChangeKind =
  | "courses"
  | "plans"
  | "settings"
  | "roles"
  | "user"
  | "session"
  | "progress"
  | "events"
  | "notifications";

/**
 * Every module's services by name: each module adds the ones it provides, with their types, in
 * its index.ts (`declare module "../../lib/module" { interface AppServices { … } }`).
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the modules' declarations
export interface AppServices {}
type Name = keyof AppServices & string;

/**
 * A module of the API (`modules/<name>/index.ts`): the services it needs from other modules, by
 * name; the services it builds from them (`provides`, the names other modules ask for); the
 * services its routes read once every module is built (`routesRead`); its routes, registered
 * under `/api` in the order app.ts lists the modules. app.ts builds the modules in the order
 * their `needs` require, and `scripts/architecture.ts` draws docs/architecture.md from these
 * declarations.
 */
export interface AppModule<N extends Name = Name, P extends Name = Name> {
  name: string;
  needs: readonly N[];
  provides: readonly P[];
  routesRead?: readonly Name[];
  /**
   * The changes its writes announce (`ctx.changes.publish`, or `announcing()` around a service's
   * write methods): the bus it is built with refuses any other, and docs/architecture.md lists
   * them with the kept reads they drop.
   */
  announces?: readonly ChangeKind[];
  build?: (
    ctx: ModuleContext,
    needs: Pick<AppServices, N>,
  ) => Pick<AppServices, P> | Promise<Pick<AppServices, P>>;
  routes?: (api: FastifyInstance) => Promise<void>;
}

/** Any module, whatever it needs and provides. */
export type AnyModule = Omit<AppModule, "build"> & {
  build?: (ctx: ModuleContext, needs: never) => unknown;
};

/** Declares a module: `build` is given exactly the services named in `needs`, returns those in `provides`. */
export function defineModule<const N extends Name = never, const P extends Name = never>(
  module: AppModule<N, P>,
): AppModule<N, P> {
  return module;
}

/**
 * The modules in an order where each comes after those providing what it needs (the listed order
 * otherwise); throws on a service nobody provides, one provided twice, or a circle.
 */
export function buildOrder<M extends Pick<AnyModule, "name" | "needs" | "provides">>(
  modules: readonly M[],
): M[] {
  const providerOf = new Map<string, M>();
  for (const m of modules)
    for (const s of m.provides) {
      const other = providerOf.get(s);
      if (other) throw new Error(`service ${s} provided by both ${other.name} and ${m.name}`);
      providerOf.set(s, m);
    }
  const order: M[] = [];
  const state = new Map<M, "visiting" | "done">();
  const visit = (m: M, path: string[]) => {
    if (state.get(m) === "done") return;
    if (state.get(m) === "visiting")
      throw new Error(`modules depend in a circle: ${[...path, m.name].join(" → ")}`);
    state.set(m, "visiting");
    for (const s of m.needs) {
      const provider = providerOf.get(s);
      if (!provider) throw new Error(`module ${m.name} needs ${s}, which no module provides`);
      if (provider !== m) visit(provider, [...path, m.name]);
    }
    state.set(m, "done");
    order.push(m);
  };
  for (const m of modules) visit(m, []);
  return order;
}

/** The change bus as a module may use it: it announces only the kinds of change it declares. */
function declaredChanges(changes: ChangeBus, m: Pick<AnyModule, "name" | "announces">): ChangeBus {
  const kinds = new Set<string>(m.announces ?? []);
  return {
    get kind() {
      return changes.kind;
    },
    get epoch() {
      return changes.epoch;
    },
    subscribe: (listener) => changes.subscribe(listener),
    close: () => changes.close(),
    publish(...topics: ChangeTopic[]) {
      for (const topic of topics) {
        const kind = topic.split(":", 1)[0] ?? topic;
        if (!kinds.has(kind))
          throw new Error(`module ${m.name} announces ${kind} changes without declaring them (announces)`);
      }
      changes.publish(...topics);
    },
  };
}

/**
 * Builds the modules (in `buildOrder`), each given only the services it declares and a change bus
 * that announces only what it declares; returns every service by name. A module whose build
 * returns other names than it declares is an error.
 */
export async function buildModules(modules: readonly AnyModule[], ctx: ModuleContext): Promise<AppServices> {
  const services: Record<string, unknown> = {};
  for (const m of buildOrder(modules)) {
    if (!m.build) continue;
    const needs = Object.fromEntries(m.needs.map((s) => [s, services[s]]));
    const own = { ...ctx, changes: declaredChanges(ctx.changes, m) };
    const built = (await m.build(own, needs as never)) as object;
    const names = Object.keys(built).sort();
    if (names.join() !== [...m.provides].sort().join())
      throw new Error(`module ${m.name} declares ${m.provides.join(", ")} but builds ${names.join(", ")}`);
    Object.assign(services, built);
  }
  for (const m of modules)
    for (const s of m.routesRead ?? [])
      if (!(s in services)) throw new Error(`the routes of ${m.name} read ${s}, which no module provides`);
  return services as unknown as AppServices;
}
