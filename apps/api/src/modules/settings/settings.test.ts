import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, buildTestApp, type TestContext } from "../../../test/helpers/build";
import { courseWithLessons } from "../../../test/helpers/learning";
import { loadConfig } from "../../config";
import { auditLog, settings } from "../../db/schema";
import { createChangeBus } from "../../lib/change-bus";
import { seedAll } from "../../seed-all";
import { createSettingsService, settingsDefaults } from "./service";

let t: TestContext;
let admin: string;
let learner: { id: string; token: string };
beforeAll(async () => {
  t = await buildTestApp({ env: { CONTACT_EMAIL: "hello@parlons.test" } });
  admin = await t.adminToken();
  learner = await t.createUser();
});
afterAll(() => t.close());

const url = "/api/v1/settings";
const getSetting = async (token?: string) => {
  const res = await t.request({ method: "GET", url, token });
  expect(res.statusCode).toBe(200);
  return res.json().data.setting;
};
/** As the admin unless told otherwise (null: no token). */
const post = (payload: unknown, token: string | null = admin) =>
  t.request({ method: "POST", url, token: token ?? undefined, payload: payload as object });

describe("GET /v1/settings", () => {
  it("is public and sends only the public fields, seeded from the configuration", async () => {
    const setting = await getSetting();
    expect(Object.keys(setting).sort()).toEqual([
      "audio_source",
      "contact_email",
      "default_locale",
      "registrations_open",
      "seller",
      "staff_two_factor_required",
      "support_url",
      "updated_at",
    ]);
    expect(setting).toMatchObject({
      audio_source: { type: "server", base_url: null },
      contact_email: "hello@parlons.test",
      support_url: null,
      default_locale: "fr",
      registrations_open: true,
    });
    expect(await getSetting(learner.token)).toEqual(setting);
  });
});

describe("POST /v1/settings", () => {
  it("requires authentication and the settings.manage permission", async () => {
    expect((await post({ registrations_open: false }, null)).statusCode).toBe(401);
    const forbidden = await post({ registrations_open: false }, learner.token);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().code).toBe("FORBIDDEN");
    expect((await getSetting()).registrations_open).toBe(true);
  });

  it("validates the fields: CDN URL in https (http for localhost only), email, no unknown field", async () => {
    const cases: [unknown, string][] = [
      [{ audio_source: { type: "cdn", base_url: "http://cdn.example.com" } }, "audio_source.base_url"],
      [{ audio_source: { type: "cdn", base_url: "https://cdn.example.com/?x=1" } }, "audio_source.base_url"],
      [{ audio_source: { type: "cdn", base_url: "not a url" } }, "audio_source.base_url"],
      // no base URL stored yet: cdn needs one
      [{ audio_source: { type: "cdn" } }, "audio_source.base_url"],
      [{ audio_source: { type: "s3" } }, "audio_source.type"],
      [{ contact_email: "not-an-email" }, "contact_email"],
      [{ support_url: "javascript:alert(1)" }, "support_url"],
      [{ default_locale: "de" }, "default_locale"],
      [{ registrations_open: "yes" }, "registrations_open"],
      [{ seller: { name: "" } }, "seller.name"],
    ];
    for (const [payload, field] of cases) {
      const res = await post(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().code).toBe("VALIDATION_FAILED");
      expect(Object.keys(res.json().errors ?? {}), JSON.stringify(payload)).toContain(field);
    }
    const unknown = await post({ jwt_secret: "x" });
    expect(unknown.statusCode).toBe(422);
  });

  it("updates only the fields sent, answers the new object and writes the audit log", async () => {
    const before = await getSetting();
    const res = await post({
      contact_email: " Contact@Parlons.test ",
      support_url: "https://help.parlons.test",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBeTruthy();
    const setting = res.json().data.setting;
    expect(setting).toMatchObject({
      contact_email: "Contact@Parlons.test",
      support_url: "https://help.parlons.test",
      audio_source: before.audio_source,
      registrations_open: true,
    });
    expect(await getSetting()).toEqual(setting);

    const adminUser = await t.app.deps.services.users.findByEmail(ADMIN.email);
    const [entry] = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "settings.update"))
      .orderBy(desc(auditLog.createdAt))
      .limit(1);
    expect(entry).toMatchObject({ actorId: adminUser?.id, targetType: "settings", targetId: "1" });
    expect(entry).toMatchObject({
      actorEmail: ADMIN.email,
      before: { contactEmail: "hello@parlons.test", supportUrl: null },
      after: { contactEmail: "Contact@Parlons.test", supportUrl: "https://help.parlons.test" },
    });
    const [row] = await t.database.db.select().from(settings);
    expect(row?.updatedBy).toBe(adminUser?.id);

    // nothing changed: no new audit entry
    const count = (await t.database.db.select().from(auditLog)).length;
    expect((await post({ support_url: "https://help.parlons.test" })).statusCode).toBe(200);
    expect((await t.database.db.select().from(auditLog)).length).toBe(count);
    expect((await post({ support_url: null })).json().data.setting.support_url).toBeNull();
  });
});

describe("audio source", () => {
  it("points lesson audio URLs and the CSP at the CDN, and back at this server", async () => {
    const fx = await courseWithLessons(t, admin);
    const lessonsUrl = `/api/v1/courses/${fx.course.id}/lessons`;
    const audioUrl = async () => {
      const res = await t.request({ method: "GET", url: lessonsUrl, token: admin });
      expect(res.statusCode).toBe(200);
      const lesson = res.json().data.lessons.find((l: { id: string }) => l.id === fx.free.id);
      return lesson.audio.url as string;
    };
    const mediaSrc = async () => {
      const res = await t.request({ method: "GET", url: "/api/health" });
      return /media-src ([^;]*)/.exec(String(res.headers["content-security-policy"]))?.[1] ?? "";
    };
    expect(await audioUrl()).toMatch(/^\/api\/v1\/media\/audio\//);
    expect(await mediaSrc()).toBe("'self' blob:");

    const saved = await post({ audio_source: { type: "cdn", base_url: "https://cdn.parlons.test/edge/" } });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data.setting.audio_source).toEqual({
      type: "cdn",
      base_url: "https://cdn.parlons.test/edge",
    });
    const cdnUrl = await audioUrl();
    expect(cdnUrl).toMatch(/^https:\/\/cdn\.parlons\.test\/edge\/api\/v1\/media\/audio\/[^?]+\?u=/);
    expect(await mediaSrc()).toBe("'self' blob: https://cdn.parlons.test");
    // the CDN forwards path and signed query to this server, which serves the bytes
    const forwarded = new URL(cdnUrl);
    const bytes = await t.request({
      method: "GET",
      url: `${forwarded.pathname.replace(/^\/edge/, "")}${forwarded.search}`,
    });
    expect(bytes.statusCode).toBe(200);
    expect(bytes.headers["content-type"]).toBe("audio/mpeg");

    // cdn without a new base URL keeps the stored one
    expect((await post({ audio_source: { type: "cdn" } })).json().data.setting.audio_source.base_url).toBe(
      "https://cdn.parlons.test/edge",
    );
    const back = await post({ audio_source: { type: "server", base_url: null } });
    expect(back.json().data.setting.audio_source).toEqual({ type: "server", base_url: null });
    expect(await audioUrl()).toMatch(/^\/api\/v1\/media\/audio\//);
    expect(await mediaSrc()).toBe("'self' blob:");
  });
});

describe("registrations", () => {
  const register = (email: string) =>
    t.request({
      method: "POST",
      url: "/api/v1/user/self-register",
      payload: { email, password: "Learner-pass1!", speak: "FR" },
    });

  it("refuses self-registration while closed, accepts it again once reopened", async () => {
    expect((await post({ registrations_open: false })).json().data.setting.registrations_open).toBe(false);
    const closed = await register("closed@test.local");
    expect(closed.statusCode).toBe(403);
    expect(closed.json()).toMatchObject({ statusCode: 403, code: "REGISTRATIONS_CLOSED" });
    expect(await t.app.deps.services.users.findByEmail("closed@test.local")).toBeUndefined();

    expect((await post({ registrations_open: true })).statusCode).toBe(200);
    expect((await register("closed@test.local")).statusCode).toBe(201);
  });
});

describe("settings service", () => {
  it("keeps the row in memory, and an update made by another process reaches it through the change bus", async () => {
    const defaults = settingsDefaults(t.config);
    const log = { warn: () => undefined, info: () => undefined };
    const bus = () => createChangeBus({ database: t.database, channel: t.config.changeChannel, log });
    const [busA, busB] = [await bus(), await bus()];
    const { audit } = t.app.deps.services;
    const a = createSettingsService({ db: t.database.db, defaults, changes: busA, audit });
    const b = createSettingsService({ db: t.database.db, defaults, changes: busB, audit });
    const adminUser = await t.app.deps.services.users.loadPrincipal(
      (await t.app.deps.services.users.findByEmail(ADMIN.email))?.id ?? "",
    );
    if (!adminUser) throw new Error("no admin");
    const initial = (await b.get()).default_locale;
    const other = initial === "fr" ? "en" : "fr";
    // a change that bypasses the service is not seen: b answers from memory
    await t.database.db.update(settings).set({ defaultLocale: other });
    expect((await b.get()).default_locale).toBe(initial);
    await t.database.db.update(settings).set({ defaultLocale: initial });

    await a.update(adminUser, { default_locale: other });
    expect((await a.get()).default_locale).toBe(other);
    await expect.poll(async () => (await b.get()).default_locale).toBe(other);
    await a.update(adminUser, { default_locale: initial });
    await expect.poll(async () => (await b.get()).default_locale).toBe(initial);
    await busA.close();
    await busB.close();
  });

  it("is seeded once from AUDIO_BASE_URL and CONTACT_EMAIL, and later starts keep the edits", async () => {
    await t.database.db.delete(settings);
    const config = loadConfig({
      NODE_ENV: "test",
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "parlons-settings-")),
      JWT_SECRET: "test-secret-test-secret-test-secret-0123456789",
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      AUDIO_BASE_URL: "https://cdn.seed.test/",
      CONTACT_EMAIL: "Seed@Parlons.test",
      SEED_DEMO: "false",
    });
    await seedAll(t.database.db, config);
    const seeded = createSettingsService({
      db: t.database.db,
      defaults: settingsDefaults(config),
      audit: t.app.deps.services.audit,
    });
    expect(await seeded.get()).toMatchObject({
      audio_source: { type: "cdn", base_url: "https://cdn.seed.test" },
      contact_email: "seed@parlons.test",
      registrations_open: true,
    });
    await t.database.db.update(settings).set({ contactEmail: "edited@parlons.test" });
    await seedAll(t.database.db, config);
    const [row] = await t.database.db.select().from(settings);
    expect(row?.contactEmail).toBe("edited@parlons.test");
    expect(row?.audioSource).toBe("cdn");
  });
});
