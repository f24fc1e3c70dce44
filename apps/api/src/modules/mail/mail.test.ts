import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { emailTemplates, mailCampaigns, mailDeliveries, plans } from "../../db/schema";
import type { Mailer } from "../../integrations/mail/mailer";
import { startMailWorker } from "../../jobs/mail-worker";

let t: TestContext;
let admin: string;
let learner: { id: string; token: string };
const ids: Record<"fr" | "en" | "premium" | "pending" | "disabled", string> = {
  fr: "",
  en: "",
  premium: "",
  pending: "",
  disabled: "",
};

const template = {
  name: "Newsletter",
  slug: "newsletter",
  subject_fr: "Des nouvelles, {{full_name}}",
  subject_en: "News for you, {{full_name}}",
  body_fr: "Bonjour {{full_name}},\n\nVotre formule : {{plan_name}}.\n\nÀ bientôt sur {{site_url}}",
  body_en: "Hello {{full_name}},\n\nYour plan: {{plan_name}}.\n\nSee you on {{site_url}}",
  active: true,
};

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.adminToken();
  learner = await t.createUser({ email: "learner@test.local" });
  const { users } = t.app.deps.services;
  const make = async (
    email: string,
    fullName: string,
    speak: "FR" | "EN",
    status: "ACTIVE" | "PENDING" | "DISABLED",
  ) => {
    const row = await users.createUser({
      email,
      passwordHash: "x",
      fullName,
      speak,
      status,
      role: "CUSTOMER",
    });
    return row.id;
  };
  ids.fr = await make("ana@test.local", "Ana <script>alert(1)</script>", "FR", "ACTIVE");
  ids.en = await make("ben@test.local", "Ben", "EN", "ACTIVE");
  ids.premium = await make("cleo@test.local", "Cléo", "EN", "ACTIVE");
  ids.pending = await make("dan@test.local", "Dan", "FR", "PENDING");
  ids.disabled = await make("eve@test.local", "Eve", "FR", "DISABLED");
  const [premium] = await t.database.db
    .insert(plans)
    .values({ name: "Premium", nameFr: "Premium FR", amount: 900 })
    .returning();
  if (!premium) throw new Error("no plan");
  await users.update(ids.premium, { planId: premium.id });
});
afterAll(() => t.close());

beforeEach(async () => {
  await t.database.db.delete(mailCampaigns);
  await t.database.db.delete(emailTemplates);
  t.mailbox.messages.length = 0;
});

type Method = "GET" | "POST" | "PUT" | "DELETE";
const call = (method: Method, url: string, payload?: object, token: string | null = admin) =>
  t.request({ method, url: `/api${url}`, payload, token: token ?? undefined });

const worker = (mailer: Mailer = t.mailbox, opts: { batchSize?: number } = {}) =>
  startMailWorker({
    queue: t.app.deps.services.mailDeliveries,
    mailer,
    log: t.app.log,
    schedule: false,
    ...opts,
  });

async function createTemplate(body: object = template): Promise<string> {
  const res = await call("POST", "/v1/email-templates", body);
  expect(res.statusCode).toBe(201);
  return res.json().data.template.id;
}

const deliveries = (campaignId: string) =>
  t.database.db.select().from(mailDeliveries).where(eq(mailDeliveries.campaignId, campaignId));

const campaign = async (id: string) => {
  const res = await call("GET", `/v1/send-mail/${id}`);
  expect(res.statusCode).toBe(200);
  return res.json().data.campaign;
};

describe("access", () => {
  it("every route needs a token (401) and mail.manage (403)", async () => {
    const id = "00000000-0000-4000-8000-000000000000";
    const routes: [Method, string, object?][] = [
      ["GET", "/v1/email-templates"],
      ["GET", "/v1/email-templates/active"],
      ["GET", `/v1/email-templates/${id}`],
      ["POST", "/v1/email-templates", template],
      ["POST", "/v1/email-templates/preview", { body_fr: "x" }],
      ["PUT", `/v1/email-templates/${id}`, template],
      ["DELETE", `/v1/email-templates/${id}`],
      ["GET", "/v1/send-mail"],
      ["GET", `/v1/send-mail/${id}`],
      ["POST", "/v1/send-mail/pagination", {}],
      ["POST", "/v1/send-mail/count", { audience: {} }],
      ["POST", "/v1/send-mail", { template_id: id, audience: {} }],
      ["POST", "/v1/send-mail/send", { campaign_id: id }],
    ];
    for (const [method, url, payload] of routes) {
      const anonymous = await call(method, url, payload, null);
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
      const forbidden = await call(method, url, payload, learner.token);
      expect(forbidden.statusCode, `${method} ${url}`).toBe(403);
      expect(forbidden.json().code).toBe("FORBIDDEN");
    }
  });
});

describe("templates", () => {
  it("create, list, active list, update, delete", async () => {
    const id = await createTemplate();
    await createTemplate({ ...template, slug: "old-news", name: "Old news", active: false });

    const list = (await call("GET", "/v1/email-templates?page=1&pageSize=10")).json().data;
    expect(list.pagination).toEqual({ page: 1, pageSize: 10, total: 2 });
    expect(list.templates.map((x: { slug: string }) => x.slug).sort()).toEqual(["newsletter", "old-news"]);
    const searched = (await call("GET", "/v1/email-templates?search=old")).json().data.templates;
    expect(searched.map((x: { slug: string }) => x.slug)).toEqual(["old-news"]);

    const active = (await call("GET", "/v1/email-templates/active")).json().data.templates;
    expect(active.map((x: { slug: string }) => x.slug)).toEqual(["newsletter"]);

    const updated = await call("PUT", `/v1/email-templates/${id}`, {
      ...template,
      name: "Letter",
      active: false,
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().data.template).toMatchObject({
      id,
      name: "Letter",
      active: false,
      transactional: false,
    });
    expect((await call("GET", `/v1/email-templates/${id}`)).json().data.template.name).toBe("Letter");

    const taken = await call("PUT", `/v1/email-templates/${id}`, { ...template, slug: "old-news" });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe("TEMPLATE_SLUG_TAKEN");
    const again = await call("POST", "/v1/email-templates", template);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe("TEMPLATE_SLUG_TAKEN");

    expect((await call("DELETE", `/v1/email-templates/${id}`)).statusCode).toBe(200);
    expect((await call("DELETE", `/v1/email-templates/${id}`)).statusCode).toBe(404);
    expect((await call("PUT", `/v1/email-templates/${id}`, template)).statusCode).toBe(404);
  });

  it("refuses unknown variables (422), and a transactional template without {{action_url}}", async () => {
    const res = await call("POST", "/v1/email-templates", {
      ...template,
      body_fr: "Salut {{prenom}} {{ email }}",
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe("VALIDATION_FAILED");
    expect(res.json().errors.body_fr[0]).toContain("{{prenom}}");
    expect(res.json().errors.body_en).toBeUndefined();

    const subject = await call("POST", "/v1/email-templates", { ...template, subject_en: "{{plan}}" });
    expect(subject.statusCode).toBe(422);
    expect(Object.keys(subject.json().errors)).toEqual(["subject_en"]);

    const noLink = await call("POST", "/v1/email-templates", { ...template, slug: "activation" });
    expect(noLink.statusCode).toBe(422);
    expect(Object.keys(noLink.json().errors).sort()).toEqual(["body_en", "body_fr"]);

    const missing = await call("POST", "/v1/email-templates", { name: "x" });
    expect(missing.statusCode).toBe(422);
    expect(Object.keys(missing.json().errors)).toEqual(
      expect.arrayContaining(["slug", "subject_fr", "subject_en", "body_fr", "body_en"]),
    );
    const preview = await call("POST", "/v1/email-templates/preview", { body_fr: "{{nope}}" });
    expect(preview.statusCode).toBe(422);
  });

  it("previews with sample values, escaped in HTML", async () => {
    const res = await call("POST", "/v1/email-templates/preview", {
      subject_fr: "Pour {{full_name}}",
      body_fr: "Bonjour {{full_name}} <b>\n\nVoir {{site_url}}",
      subject_en: "For {{full_name}}",
      body_en: "Hello",
    });
    expect(res.statusCode).toBe(200);
    const { fr, en } = res.json().data;
    expect(fr.subject).toBe("Pour Camille Martin");
    expect(fr.text).toBe("Bonjour Camille Martin <b>\n\nVoir http://parlons.test");
    expect(fr.html).toContain("<p>Bonjour Camille Martin &lt;b&gt;</p>");
    expect(fr.html).toContain('<a href="http://parlons.test"');
    expect(en.subject).toBe("For Camille Martin");
  });
});

describe("audience", () => {
  const count = async (audience: object) => {
    const res = await call("POST", "/v1/send-mail/count", { audience });
    expect(res.statusCode).toBe(200);
    return res.json().data.count as number;
  };

  it("counts active users only, narrowed by role, plan and language", async () => {
    // admin, learner, ana, ben, cleo are active; dan is pending, eve disabled
    expect(await count({})).toBe(5);
    expect(await count({ status: "ACTIVE" })).toBe(5);
    expect(await count({ role: "CUSTOMER" })).toBe(4);
    expect(await count({ role: "ADMIN" })).toBe(1);
    expect(await count({ role: "NOBODY" })).toBe(0);
    expect(await count({ role: "CUSTOMER", speak: "EN" })).toBe(2);
    expect(await count({ plan: "premium" })).toBe(1);
    expect(await count({ role: "CUSTOMER", plan: "free" })).toBe(3);
    expect(await count({ plan: "premium", speak: "FR" })).toBe(0);
    const [premium] = await t.database.db.select().from(plans).where(eq(plans.name, "Premium"));
    expect(await count({ plan: premium?.id })).toBe(1);
    const bad = await call("POST", "/v1/send-mail/count", { audience: { plan: "gold", status: "PENDING" } });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(["audience.plan", "audience.status"]);
  });
});

describe("campaigns", () => {
  it("send queues one delivery per recipient; the worker sends each once, in the recipient's language", async () => {
    const templateId = await createTemplate();
    const res = await call("POST", "/v1/send-mail/send", {
      template_id: templateId,
      audience: { role: "CUSTOMER" },
    });
    expect(res.statusCode).toBe(202);
    const queued = res.json().data.campaign;
    expect(queued).toMatchObject({ status: "QUEUED", total: 4, sent: 0, failed: 0, template_id: templateId });
    expect(queued.audience).toEqual({ role: "CUSTOMER", status: "ACTIVE" });
    expect(await deliveries(queued.id)).toHaveLength(4);
    expect(t.mailbox.messages).toHaveLength(0);

    const result = await worker().runOnce();
    expect(result).toEqual({ sent: 4, retried: 0, failed: 0 });
    expect(t.mailbox.messages.map((m) => m.to).sort()).toEqual([
      "ana@test.local",
      "ben@test.local",
      "cleo@test.local",
      "learner@test.local",
    ]);
    const ana = t.mailbox.last("ana@test.local");
    expect(ana?.subject).toBe("Des nouvelles, Ana <script>alert(1)</script>");
    expect(ana?.text).toContain("Votre formule : Découverte.");
    expect(ana?.text).toContain("Bonjour Ana <script>alert(1)</script>,");
    expect(ana?.html).toContain("Bonjour Ana &lt;script&gt;alert(1)&lt;/script&gt;,");
    expect(ana?.html).not.toContain("<script>");
    const ben = t.mailbox.last("ben@test.local");
    expect(ben?.subject).toBe("News for you, Ben");
    expect(ben?.text).toContain("See you on http://parlons.test/en");
    expect(ben?.text).toContain("Your plan: Discovery.");
    expect(t.mailbox.last("cleo@test.local")?.text).toContain("Your plan: Premium.");

    const done = await campaign(queued.id);
    expect(done).toMatchObject({ status: "SENT", total: 4, sent: 4, failed: 0 });
    expect(done.started_at).not.toBeNull();
    expect(done.finished_at).not.toBeNull();
    expect((await deliveries(queued.id)).every((d) => d.status === "SENT" && d.attempts === 1)).toBe(true);

    // nothing left: a second run sends nothing
    expect(await worker().runOnce()).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(t.mailbox.messages).toHaveLength(4);
  });

  it("a DRAFT is sent once: sending it again is 409 and adds no delivery", async () => {
    const created = await call("POST", "/v1/send-mail", {
      subject_fr: "Sujet",
      subject_en: "Subject",
      body_fr: "Corps",
      body_en: "Body",
      audience: { speak: "EN" },
    });
    expect(created.statusCode).toBe(201);
    const draft = created.json().data.campaign;
    expect(draft).toMatchObject({ status: "DRAFT", total: 0, template_id: null });
    expect(await deliveries(draft.id)).toHaveLength(0);

    const [first, second] = await Promise.all([
      call("POST", "/v1/send-mail/send", { campaign_id: draft.id }),
      call("POST", "/v1/send-mail/send", { campaign_id: draft.id }),
    ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([202, 409]);
    const third = await call("POST", "/v1/send-mail/send", { campaign_id: draft.id });
    expect(third.statusCode).toBe(409);
    expect(third.json().code).toBe("CAMPAIGN_ALREADY_QUEUED");
    expect(await deliveries(draft.id)).toHaveLength(2);

    await worker().runOnce();
    expect((await call("POST", "/v1/send-mail/send", { campaign_id: draft.id })).statusCode).toBe(409);
    expect(t.mailbox.messages.map((m) => m.to).sort()).toEqual(["ben@test.local", "cleo@test.local"]);
  });

  it("validates what to send and to whom", async () => {
    const cases: [object, string][] = [
      [{ audience: {} }, "subject_fr"],
      [{ template_id: "00000000-0000-4000-8000-000000000000", audience: {} }, "template_id"],
      [{ template_id: "00000000-0000-4000-8000-000000000000", subject_fr: "x", audience: {} }, "subject_fr"],
      [{ subject_fr: "a", subject_en: "b", body_fr: "{{foo}}", body_en: "d", audience: {} }, "body_fr"],
      [
        { subject_fr: "a", subject_en: "b", body_fr: "c", body_en: "d", audience: { role: "NOBODY" } },
        "audience",
      ],
      [{ subject_fr: "a", subject_en: "b", body_fr: "c", body_en: "d" }, "audience"],
      [{ campaign_id: "00000000-0000-4000-8000-000000000000", audience: {} }, "audience"],
    ];
    for (const [payload, field] of cases) {
      const res = await call("POST", "/v1/send-mail/send", payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(Object.keys(res.json().errors), JSON.stringify(payload)).toContain(field);
    }
    const unknown = await call("POST", "/v1/send-mail/send", {
      campaign_id: "00000000-0000-4000-8000-000000000000",
    });
    expect(unknown.statusCode).toBe(404);
    expect((await call("GET", "/v1/send-mail/not-a-uuid")).statusCode).toBe(400);
    // nothing was left behind by the refused sends
    expect(await t.database.db.select().from(mailCampaigns)).toHaveLength(0);
  });

  it("lists campaigns latest first, paginated and filtered; deleting a template keeps its campaigns' texts", async () => {
    const templateId = await createTemplate();
    const first = (await call("POST", "/v1/send-mail", { template_id: templateId, audience: {} })).json().data
      .campaign;
    const second = (
      await call("POST", "/v1/send-mail/send", { template_id: templateId, audience: { speak: "FR" } })
    ).json().data.campaign;
    const list = (await call("GET", "/v1/send-mail")).json().data;
    expect(list.campaigns.map((c: { id: string }) => c.id)).toEqual([second.id, first.id]);
    expect(list.pagination.total).toBe(2);
    const page = await call("POST", "/v1/send-mail/pagination", { page: 2, pageSize: 1, filters: {} });
    expect(page.json().data.campaigns.map((c: { id: string }) => c.id)).toEqual([first.id]);
    const queued = await call("POST", "/v1/send-mail/pagination", { filters: { status: "QUEUED" } });
    expect(queued.json().data.campaigns.map((c: { id: string }) => c.id)).toEqual([second.id]);
    const none = await call("POST", "/v1/send-mail/pagination", { filters: { search: "zzz" } });
    expect(none.json().data.pagination.total).toBe(0);

    expect((await call("DELETE", `/v1/email-templates/${templateId}`)).statusCode).toBe(200);
    const kept = await campaign(first.id);
    expect(kept).toMatchObject({
      template_id: null,
      subject_fr: template.subject_fr,
      body_en: template.body_en,
    });
    await worker().runOnce();
    expect(await campaign(second.id)).toMatchObject({ status: "SENT", sent: 3 });
  });
});

describe("worker", () => {
  async function queueTo(audience: object) {
    const res = await call("POST", "/v1/send-mail/send", {
      subject_fr: "Bonjour {{full_name}}",
      subject_en: "Hello {{full_name}}",
      body_fr: "Texte",
      body_en: "Text",
      audience,
    });
    expect(res.statusCode).toBe(202);
    return res.json().data.campaign.id as string;
  }

  it("retries a failing address with backoff, then marks it FAILED; the others are SENT", async () => {
    const id = await queueTo({ role: "CUSTOMER" });
    let tries = 0;
    const flaky: Mailer = {
      ...t.mailbox,
      async send(message) {
        if (message.to === "ben@test.local") {
          tries += 1;
          throw new Error("550 mailbox unavailable");
        }
        return t.mailbox.send(message);
      },
    };
    const w = worker(flaky);
    const now = Date.now();
    expect(await w.runOnce(new Date(now))).toEqual({ sent: 3, retried: 1, failed: 0 });
    // not due yet: the first retry waits 30 s
    expect(await w.runOnce(new Date(now + 10_000))).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(await w.runOnce(new Date(now + 31_000))).toEqual({ sent: 0, retried: 1, failed: 0 });
    // the second retry waits 2 minutes
    expect(await w.runOnce(new Date(now + 60_000))).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect((await campaign(id)).status).toBe("SENDING");
    expect(await w.runOnce(new Date(now + 200_000))).toEqual({ sent: 0, retried: 0, failed: 1 });
    expect(tries).toBe(3);

    const rows = await deliveries(id);
    const ben = rows.find((d) => d.email === "ben@test.local");
    expect(ben).toMatchObject({ status: "FAILED", attempts: 3, lastError: "550 mailbox unavailable" });
    expect(rows.filter((d) => d.status === "SENT")).toHaveLength(3);
    expect(await campaign(id)).toMatchObject({ status: "SENT", total: 4, sent: 3, failed: 1 });
    expect(t.mailbox.messages).toHaveLength(3);
  });

  it("a campaign where every delivery failed is FAILED", async () => {
    const id = await queueTo({ speak: "EN", role: "CUSTOMER", plan: "premium" });
    const down: Mailer = {
      ...t.mailbox,
      async send() {
        throw new Error("connection refused");
      },
    };
    const w = worker(down);
    const now = Date.now();
    for (const at of [0, 31_000, 200_000]) await w.runOnce(new Date(now + at));
    expect(await campaign(id)).toMatchObject({ status: "FAILED", total: 1, sent: 0, failed: 1 });
  });

  it("picks up a delivery left SENDING by a crashed worker once its lease expires, and sends it once", async () => {
    const id = await queueTo({ role: "CUSTOMER" });
    const { mailDeliveries: queue } = t.app.deps.services;
    const now = Date.now();
    // a worker claims two rows and dies before sending them
    const claimed = await queue.claim(new Date(now), { limit: 2, leaseMs: 60_000 });
    expect(claimed).toHaveLength(2);
    const w = worker();
    // the two others go out; the crashed worker's rows wait for their lease
    expect(await w.runOnce(new Date(now + 1000))).toEqual({ sent: 2, retried: 0, failed: 0 });
    expect((await deliveries(id)).filter((d) => d.status === "SENDING")).toHaveLength(2);
    expect((await campaign(id)).status).toBe("SENDING");

    expect(await w.runOnce(new Date(now + 61_000))).toEqual({ sent: 2, retried: 0, failed: 0 });
    expect(await w.runOnce(new Date(now + 200_000))).toEqual({ sent: 0, retried: 0, failed: 0 });
    const sentTo = t.mailbox.messages.map((m) => m.to).sort();
    expect(sentTo).toEqual(["ana@test.local", "ben@test.local", "cleo@test.local", "learner@test.local"]);
    const rows = await deliveries(id);
    expect(
      rows
        .filter((d) => d.attempts === 2)
        .map((d) => d.id)
        .sort(),
    ).toEqual(claimed.map((c) => c.delivery.id).sort());
    expect(await campaign(id)).toMatchObject({ status: "SENT", sent: 4, failed: 0 });

    // the crashed worker comes back late: its stale claim cannot mark or count anything again
    const stale = claimed[0]?.delivery;
    if (!stale) throw new Error("no claim");
    expect(await queue.complete(stale, new Date(now + 300_000))).toBe(false);
    expect(await queue.fail(stale, "late", new Date(now + 300_000), 0)).toBeNull();
    expect((await campaign(id)).sent).toBe(4);
  });

  it("gives up on a delivery whose lease expired on its last attempt", async () => {
    const id = await queueTo({ role: "ADMIN" });
    const { mailDeliveries: queue } = t.app.deps.services;
    const now = Date.now();
    for (const at of [0, 70_000, 140_000]) {
      expect(await queue.claim(new Date(now + at), { limit: 5, leaseMs: 60_000 })).toHaveLength(1);
    }
    expect(await worker().runOnce(new Date(now + 300_000))).toEqual({ sent: 0, retried: 0, failed: 0 });
    const [row] = await deliveries(id);
    expect(row).toMatchObject({ status: "FAILED", attempts: 3 });
    expect(row?.lastError).toContain("lease");
    expect(await campaign(id)).toMatchObject({ status: "FAILED", failed: 1 });
    expect(t.mailbox.messages).toHaveLength(0);
  });
});
