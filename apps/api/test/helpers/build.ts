import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Speak } from "@parlons/contract";
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import { buildApp } from "../../src/app";
import { type Config, loadConfig } from "../../src/config";
import type { Database } from "../../src/db/client";
import { seedBase } from "../../src/db/seed";
import type { Clock } from "../../src/lib/clock";
import { hashPassword } from "../../src/lib/passwords";
import { testDatabase, truncateAll } from "./database";
import { createMailbox, type Mailbox } from "./mailbox";

export const ADMIN = { email: "admin@test.local", password: "Admin-pass1!" };
export const PASSWORD = "Learner-pass1!";

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  config: Config;
  mailbox: Mailbox;
  /** Calls the API with an optional bearer token. */
  request(opts: InjectOptions & { token?: string }): Promise<LightMyRequestResponse>;
  login(email: string, password: string): Promise<string>;
  adminToken(): Promise<string>;
  /** Creates an active user with the given role (CUSTOMER by default) and returns its id and token. */
  createUser(opts?: {
    email?: string;
    role?: string;
    status?: "ACTIVE" | "PENDING" | "DISABLED";
    speak?: Speak;
  }): Promise<{ id: string; email: string; token: string }>;
  close(): Promise<void>;
}

let counter = 0;

/**
 * Builds the app on this worker's shared database, emptied and seeded again.
 * `env` overrides configuration (as environment variables would); `clock` is the time the day-counting
 * services see (test/helpers/clock.ts).
 */
export async function buildTestApp(
  opts: { env?: Record<string, string>; mailerKind?: "smtp" | "outbox"; reset?: boolean; clock?: Clock } = {},
): Promise<TestContext> {
  const database = await testDatabase();
  if (opts.reset !== false) {
    await truncateAll(database);
    await seedBase(database.db, ADMIN);
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), "parlons-test-"));
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    JWT_SECRET: "test-secret-test-secret-test-secret-0123456789",
    PUBLIC_URL: "http://parlons.test",
    RATE_LIMIT_AUTH_MAX: "1000",
    RATE_LIMIT_LOOKUP_MAX: "1000",
    WEB_DIST: path.join(dataDir, "no-web"),
    LOG_LEVEL: "silent",
    // no dictionary unless a test names one: answers never depend on what the machine installed
    DICTIONARY_DIR: "",
    ...opts.env,
  });
  const mailbox = createMailbox(opts.mailerKind ?? "outbox");
  const app = await buildApp({ config, database, mailer: mailbox, clock: opts.clock });
  await app.ready();

  const request: TestContext["request"] = ({ token, headers, ...rest }) =>
    app.inject({ ...rest, headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } });

  async function login(email: string, password: string) {
    const res = await app.inject({
      method: "POST",
      url: "/api/v1/user/authenticate",
      payload: { username: email, password },
    });
    if (res.statusCode !== 200) throw new Error(`login ${email} failed: ${res.statusCode} ${res.body}`);
    return res.json().data.accessToken as string;
  }

  const hashed = hashPassword(PASSWORD);
  return {
    app,
    database,
    config,
    mailbox,
    request,
    login,
    adminToken: () => login(ADMIN.email, ADMIN.password),
    async createUser(o = {}) {
      counter += 1;
      const email = o.email ?? `learner${counter}-${Date.now()}@test.local`;
      const user = await app.deps.services.users.createUser({
        email,
        passwordHash: await hashed,
        status: o.status ?? "ACTIVE",
        role: o.role ?? "CUSTOMER",
        speak: o.speak ?? "FR",
      });
      const token = (o.status ?? "ACTIVE") === "ACTIVE" ? await login(email, PASSWORD) : "";
      return { id: user.id, email, token };
    },
    async close() {
      await app.close();
    },
  };
}
