import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { benchAccounts, seedScale } from "../scripts/bench-seed";
import { buildApp } from "../src/app";
import { loadConfig } from "../src/config";
import { type Database, openDatabase } from "../src/db/client";

// `npm run bench:seed` at a thousandth of its scale: the data it writes must be data the app
// works on (sign-in, the staff lists, the learner's dashboard). PostgreSQL only.
const url = process.env.DATABASE_URL;

describe.skipIf(!url)("bench:seed (scale 0.001)", () => {
  let target: string;
  let database: Database | undefined;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    const base = new URL(url as string);
    const name = `${base.pathname.replace(/^\//, "") || "parlons"}_bench_seed_w${process.env.VITEST_POOL_ID ?? "0"}`;
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin(`CREATE DATABASE "${name}"`);
    base.pathname = `/${name}`;
    target = base.toString();
  });
  afterAll(async () => {
    await database?.close();
  });

  it("fills a database the app then serves, and refuses one holding other data", async () => {
    const counts = await seedScale({ url: target, scale: 0.001, log: () => undefined });
    expect(counts.users).toBeGreaterThanOrEqual(200);
    expect(counts.lessons).toBe(counts.courses * 25);
    expect(counts.lessonProgress).toBeGreaterThan(counts.users);
    expect(counts.mailDeliveries).toBeGreaterThan(0);
    expect(counts.payments).toBeGreaterThan(0);

    database = await openDatabase({ url: target, poolSize: 2 });
    const config = loadConfig({
      NODE_ENV: "test",
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "parlons-bench-seed-")),
      JWT_SECRET: "test-secret-test-secret-test-secret-0123456789",
      LOG_LEVEL: "silent",
      SEED_DEMO: "false",
    });
    const app = await buildApp({ config, database });
    try {
      const signIn = async (who: { email: string; password: string }) => {
        const res = await app.inject({
          method: "POST",
          url: "/api/v1/user/authenticate",
          payload: { username: who.email, password: who.password },
        });
        expect(res.statusCode, res.body).toBe(200);
        return { authorization: `Bearer ${res.json().data.accessToken}` };
      };
      const staff = await signIn(benchAccounts.staff);
      const learner = await signIn(benchAccounts.learner);

      const users = await app.inject({ method: "POST", url: "/api/v1/users", headers: staff, payload: {} });
      expect(users.statusCode, users.body).toBe(200);
      expect(users.json().data.pagination.total).toBe(counts.users);
      const courses = await app.inject({ method: "GET", url: "/api/v1/courses", headers: staff });
      expect(courses.statusCode, courses.body).toBe(200);
      const course = courses.json().data.courses[0];
      const lessons = await app.inject({
        method: "GET",
        url: `/api/v1/courses/${course.id}/lessons`,
        headers: staff,
      });
      expect(lessons.statusCode, lessons.body).toBe(200);
      expect(lessons.json().data.lessons).toHaveLength(25);
      const mail = await app.inject({
        method: "POST",
        url: "/api/v1/send-mail/pagination",
        headers: staff,
        payload: {},
      });
      expect(mail.statusCode, mail.body).toBe(200);

      const me = await app.inject({ method: "GET", url: "/api/v1/user/me", headers: learner });
      expect(me.json().data.data.plan.amount).toBeGreaterThan(0);
      const progress = await app.inject({
        method: "GET",
        url: "/api/v1/courses/customer/progress",
        headers: learner,
      });
      expect(progress.statusCode, progress.body).toBe(200);
      expect(progress.json().data.courses.length).toBeGreaterThan(0);
      const notifications = await app.inject({
        method: "GET",
        url: "/api/v1/notifications",
        headers: learner,
      });
      expect(notifications.statusCode, notifications.body).toBe(200);
    } finally {
      await app.close();
    }

    // a database this script did not fill is refused without --force
    await database.close();
    database = undefined;
    await seedScale({ url: target, scale: 0.001, log: () => undefined }); // its own data: re-seeded
    const client = new pg.Client({ connectionString: target });
    await client.connect();
    await client.query(`delete from configs where key = 'bench.seed'`);
    await client.end();
    await expect(seedScale({ url: target, scale: 0.001, log: () => undefined })).rejects.toThrow(/--force/);
  });
});
