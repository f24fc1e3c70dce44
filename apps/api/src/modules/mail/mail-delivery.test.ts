import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpSink } from "../../../test/fakes/smtp-sink";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { emailTemplates, mailDeliveries } from "../../db/schema";
import { createMailer, type MailMessage } from "../../integrations/mail/mailer";
import { startMailWorker } from "../../jobs/mail-worker";

// Delivery through real SMTP, workers racing for the same rows, and transactional templates.
let t: TestContext;
let admin: string;
beforeAll(async () => {
  t = await buildTestApp({ mailerKind: "smtp" });
  admin = await t.adminToken();
});
afterAll(() => t.close());

const send = (payload: object) =>
  t.request({ method: "POST", url: "/api/v1/send-mail/send", payload, token: admin });

describe("bulk mail", () => {
  it("goes out over SMTP with the recipient's name, in their language", async () => {
    const { users } = t.app.deps.services;
    await users.createUser({
      email: "smtp-fr@test.local",
      passwordHash: "x",
      fullName: "Zoé <Z>",
      status: "ACTIVE",
      role: "CUSTOMER",
      speak: "FR",
    });
    await users.createUser({
      email: "smtp-en@test.local",
      passwordHash: "x",
      fullName: "Yann",
      status: "ACTIVE",
      role: "CUSTOMER",
      speak: "EN",
    });
    const res = await send({
      subject_fr: "Salut {{full_name}}",
      subject_en: "Hi {{full_name}}",
      body_fr: "Bonjour {{full_name}} ({{email}})",
      body_en: "Hello {{full_name}} ({{email}})",
      audience: { role: "CUSTOMER" },
    });
    expect(res.statusCode).toBe(202);
    const sink = await startSmtpSink();
    try {
      const mailer = createMailer({
        smtpUrl: sink.url,
        outboxDir: mkdtempSync(path.join(tmpdir(), "mail-")),
        from: "Parlons <no-reply@parlons.test>",
      });
      const worker = startMailWorker({
        queue: t.app.deps.services.mailDeliveries,
        mailer,
        log: t.app.log,
        schedule: false,
      });
      expect(await worker.runOnce()).toEqual({ sent: 2, retried: 0, failed: 0 });
      mailer.close();
      expect(sink.received.map((m) => m.to[0]).sort()).toEqual(["smtp-en@test.local", "smtp-fr@test.local"]);
      const fr = sink.received.find((m) => m.to[0] === "smtp-fr@test.local")?.raw ?? "";
      const plain = fr.replace(/=\r?\n/g, "");
      expect(plain).toMatch(/Subject: .*Salut/);
      expect(plain).toContain("Bonjour Zo=C3=A9 <Z> (smtp-fr@test.local)");
      expect(plain).toContain("Zo=C3=A9 &lt;Z&gt;");
      const en = sink.received.find((m) => m.to[0] === "smtp-en@test.local")?.raw ?? "";
      expect(en).toContain("Subject: Hi Yann");
      expect(en).toContain("Hello Yann (smtp-en@test.local)");
    } finally {
      await sink.close();
    }
    const campaign = (
      await t.request({
        method: "GET",
        url: `/api/v1/send-mail/${res.json().data.campaign.id}`,
        token: admin,
      })
    ).json().data.campaign;
    expect(campaign).toMatchObject({ status: "SENT", sent: 2, failed: 0, total: 2 });
  });

  it("two workers running at once never send the same delivery twice", async () => {
    const { users } = t.app.deps.services;
    for (let i = 0; i < 40; i += 1) {
      await users.createUser({
        email: `race${i}@test.local`,
        passwordHash: "x",
        status: "ACTIVE",
        role: "CUSTOMER",
        speak: i % 2 ? "EN" : "FR",
      });
    }
    const res = await send({
      subject_fr: "a",
      subject_en: "b",
      body_fr: "c",
      body_en: "d",
      audience: { role: "CUSTOMER" },
    });
    expect(res.statusCode).toBe(202);
    const id = res.json().data.campaign.id as string;
    expect(res.json().data.campaign.total).toBe(42);

    const sends: MailMessage[] = [];
    const slowMailer = (name: string) => ({
      kind: "smtp" as const,
      async send(message: MailMessage) {
        sends.push({ ...message, subject: `${name}:${message.subject}` });
        await new Promise((r) => setTimeout(r, 2));
        return { messageId: `<${sends.length}@${name}>` };
      },
      close() {},
    });
    const make = (name: string) =>
      startMailWorker({
        queue: t.app.deps.services.mailDeliveries,
        mailer: slowMailer(name),
        log: t.app.log,
        schedule: false,
        batchSize: 3,
      });
    const [a, b] = await Promise.all([make("a").runOnce(), make("b").runOnce()]);
    expect(a.sent + b.sent).toBe(42);
    if (t.database.kind === "postgres") {
      // with a real pool both workers really ran side by side
      expect(a.sent).toBeGreaterThan(0);
      expect(b.sent).toBeGreaterThan(0);
    }
    expect(sends).toHaveLength(42);
    expect(new Set(sends.map((m) => m.to)).size).toBe(42);
    const rows = await t.database.db.select().from(mailDeliveries).where(eq(mailDeliveries.campaignId, id));
    expect(rows.every((r) => r.status === "SENT" && r.attempts === 1)).toBe(true);
    const campaign = (await t.request({ method: "GET", url: `/api/v1/send-mail/${id}`, token: admin })).json()
      .data.campaign;
    expect(campaign).toMatchObject({ status: "SENT", sent: 42, failed: 0 });
  });

  it("a worker told to stop finishes the mail it is sending and gives the rest of its batch back", async () => {
    const res = await send({
      subject_fr: "arrêt",
      subject_en: "stop",
      body_fr: "c",
      body_en: "d",
      audience: { role: "CUSTOMER" },
    });
    const { id, total } = res.json().data.campaign as { id: string; total: number };
    const sent: string[] = [];
    let sending: () => void = () => {};
    const inSend = new Promise<void>((r) => {
      sending = r;
    });
    let letGo: () => void = () => {};
    const held = new Promise<void>((r) => {
      letGo = r;
    });
    const worker = startMailWorker({
      queue: t.app.deps.services.mailDeliveries,
      mailer: {
        kind: "smtp" as const,
        async send(message: MailMessage) {
          sending();
          await held; // the first send is in progress when stop() comes
          sent.push(message.to);
          return { messageId: `<${sent.length}@stopping>` };
        },
        close() {},
      },
      log: t.app.log,
      schedule: false,
      batchSize: 5,
    });
    const run = worker.runOnce();
    await inSend;
    const stopped = worker.stop();
    letGo();
    await stopped;
    expect((await run).sent).toBe(1);
    expect(sent).toHaveLength(1);
    const rows = await t.database.db.select().from(mailDeliveries).where(eq(mailDeliveries.campaignId, id));
    expect(rows.filter((r) => r.status === "SENT")).toHaveLength(1);
    // the four others of the batch are free again, their attempt not counted
    const waiting = rows.filter((r) => r.status !== "SENT");
    expect(waiting.every((r) => r.status === "PENDING" && r.attempts === 0 && r.lockedUntil === null)).toBe(
      true,
    );

    // another worker sends the rest at once, each mail once
    const next = startMailWorker({
      queue: t.app.deps.services.mailDeliveries,
      mailer: {
        kind: "smtp" as const,
        async send(message: MailMessage) {
          sent.push(message.to);
          return { messageId: `<${sent.length}@next>` };
        },
        close() {},
      },
      log: t.app.log,
      schedule: false,
    });
    expect((await next.runOnce()).sent).toBe(total - 1);
    expect(new Set(sent).size).toBe(total);
  });
});

describe("transactional mails", () => {
  it("use the built-in texts without templates, then the active seeded (and edited) template, with a working link", async () => {
    const register = (email: string, speak: "FR" | "EN") =>
      t.request({
        method: "POST",
        url: "/api/v1/user/self-register",
        payload: { email, password: "secret-pw!", speak },
      });
    expect((await register("plain@test.local", "FR")).statusCode).toBe(201);
    expect(t.mailbox.last("plain@test.local")?.subject).toBe("Activez votre compte Parlons");

    await t.app.deps.services.mailTemplates.seedTransactional();
    await t.app.deps.services.mailTemplates.seedTransactional();
    const seeded = await t.database.db.select().from(emailTemplates);
    expect(seeded.map((s) => s.slug).sort()).toEqual([
      "account-locked",
      "activation",
      "event-booked",
      "event-reminder",
      "new-device",
      "password-changed",
      "password-reset",
      "payment-receipt",
      "study-reminder",
      "welcome",
    ]);

    await t.database.db
      .update(emailTemplates)
      .set({ subjectEn: "Your Parlons account, {{full_name}}" })
      .where(eq(emailTemplates.slug, "activation"));
    expect((await register("templated@test.local", "EN")).statusCode).toBe(201);
    const mail = t.mailbox.last("templated@test.local");
    expect(mail?.subject).toBe("Your Parlons account, templated");
    expect(mail?.html).toContain('<a href="http://parlons.test/en/activate/');
    const token = t.mailbox.linkIn(mail, /http:\/\/parlons\.test\/en\/activate\/([\w-]+)/);
    const activated = await t.request({ method: "GET", url: `/api/v1/user/account-activate/${token}` });
    expect(activated.statusCode).toBe(200);

    // an inactive template is ignored: back to the built-in text
    await t.database.db
      .update(emailTemplates)
      .set({ active: false })
      .where(eq(emailTemplates.slug, "activation"));
    await register("inactive@test.local", "EN");
    expect(t.mailbox.last("inactive@test.local")?.subject).toBe("Activate your Parlons account");

    // the seed keeps edited templates as they are
    await t.app.deps.services.mailTemplates.seedTransactional();
    const [activation] = await t.database.db
      .select()
      .from(emailTemplates)
      .where(eq(emailTemplates.slug, "activation"));
    expect(activation?.subjectEn).toBe("Your Parlons account, {{full_name}}");
  });
});
