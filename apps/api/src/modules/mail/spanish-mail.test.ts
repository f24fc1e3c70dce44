import { randomUUID } from "node:crypto";
import { LOCALES, TRANSACTIONAL_SLUGS, variablesIn } from "@parlons/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { outboxWorkerOf } from "../../../test/helpers/mail-workers";
import { emailTemplates, users } from "../../db/schema";
import { startMailWorker } from "../../jobs/mail-worker";
import { builtInText, TRANSACTIONAL_DEFAULTS, textsIn } from "./transactional";

/**
 * How a Spanish reader gets mail: the template's (or campaign's) Spanish, else the built-in
 * Spanish of a mail Parlons sends itself, else English.
 */

const frEn = {
  name: "Newsletter",
  subject_fr: "Des nouvelles",
  subject_en: "News",
  body_fr: "Bonjour {{full_name}}",
  body_en: "Hello {{full_name}}",
};

describe("built-in texts of Parlons's own mails", () => {
  it("exist in every language beyond French and English, with the English text's variables", () => {
    const others = LOCALES.filter((l) => l !== "fr" && l !== "en");
    expect(others.length).toBeGreaterThan(0);
    for (const lang of others) {
      for (const slug of TRANSACTIONAL_SLUGS) {
        const text = builtInText(slug, lang);
        const english = TRANSACTIONAL_DEFAULTS[slug];
        expect(text?.subject.trim(), `${lang} ${slug}`).toBeTruthy();
        expect(variablesIn(text?.body ?? "").sort(), `${lang} ${slug}`).toEqual(
          variablesIn(english.body_en).sort(),
        );
        expect(variablesIn(text?.subject ?? "").sort()).toEqual(variablesIn(english.subject_en).sort());
      }
    }
  });
});

describe("the text of a template for a reader", () => {
  it("is the template's own Spanish when it has both subject and body", () => {
    const texts = { ...frEn, subject_es: "Noticias", body_es: "Hola {{full_name}}" };
    expect(textsIn(texts, "ES")).toEqual({ subject: "Noticias", body: "Hola {{full_name}}" });
    expect(textsIn(texts, "ES", "welcome")).toEqual({ subject: "Noticias", body: "Hola {{full_name}}" });
    expect(textsIn(texts, "FR")).toEqual({ subject: "Des nouvelles", body: "Bonjour {{full_name}}" });
  });

  it("without Spanish: a transactional mail's built-in Spanish, anything else in English", () => {
    for (const texts of [frEn, { ...frEn, subject_es: "  ", body_es: "" }, { ...frEn, subject_es: "Solo" }]) {
      expect(textsIn(texts, "ES", "welcome")).toEqual(builtInText("welcome", "es"));
      expect(textsIn(texts, "ES")).toEqual({ subject: "News", body: "Hello {{full_name}}" });
    }
    expect(builtInText("welcome", "es")?.subject).toBe("Te damos la bienvenida a Parlons");
    // never one language's subject over another's body: the first language that has both
    expect(textsIn({ ...frEn, subject_en: "" }, "EN")).toEqual({
      subject: "Des nouvelles",
      body: "Bonjour {{full_name}}",
    });
  });
});

let t: TestContext;
let admin: string;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.adminToken();
  await t.app.deps.services.mailTemplates.seedTransactional();
});
afterAll(() => t.close());

const call = (method: "GET" | "POST" | "PUT", url: string, payload?: object, token = admin) =>
  t.request({ method, url: `/api${url}`, payload, token });

/** A French and English template under `slug`, with these Spanish texts. */
const spanish = (slug: string, subject_es: string, body_es: string) => ({
  ...frEn,
  slug,
  subject_es,
  body_es,
});

describe("templates with Spanish", () => {
  it("keep optional Spanish texts: given, kept when an update leaves them out, cleared by empty ones", async () => {
    const created = await call(
      "POST",
      "/v1/email-templates",
      spanish("noticias", "Noticias", "Hola {{full_name}}"),
    );
    expect(created.statusCode).toBe(201);
    const template = created.json().data.template;
    expect(template).toMatchObject({ subject_es: "Noticias", body_es: "Hola {{full_name}}" });

    // a client that knows only French and English
    const renamed = await call("PUT", `/v1/email-templates/${template.id}`, {
      ...frEn,
      slug: "noticias",
      name: "N",
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().data.template).toMatchObject({ name: "N", subject_es: "Noticias" });

    const cleared = await call("PUT", `/v1/email-templates/${template.id}`, spanish("noticias", "", ""));
    expect(cleared.json().data.template).toMatchObject({ subject_es: "", body_es: "" });

    const without = await call("POST", "/v1/email-templates", { ...frEn, slug: "sin-espanol" });
    expect(without.json().data.template).toMatchObject({ subject_es: "", body_es: "" });
  });

  it("refuses half a Spanish text, unknown variables in it, and a transactional one without {{action_url}}", async () => {
    const half = await call("POST", "/v1/email-templates", { ...frEn, slug: "mitad", subject_es: "Solo" });
    expect(half.statusCode).toBe(422);
    expect(half.json().errors).toHaveProperty("body_es");

    const unknown = await call(
      "POST",
      "/v1/email-templates",
      spanish("desconocido", "Hola", "Hola {{nombre}}"),
    );
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors).toHaveProperty("body_es");

    const [welcome] = await t.database.db
      .select()
      .from(emailTemplates)
      .where(eq(emailTemplates.slug, "welcome"));
    const noLink = await call("PUT", `/v1/email-templates/${welcome?.id}`, {
      ...TRANSACTIONAL_DEFAULTS.welcome,
      slug: "welcome",
      subject_es: "Hola",
      body_es: "Hola {{full_name}}",
    });
    expect(noLink.statusCode).toBe(422);
    expect(noLink.json().errors).toHaveProperty("body_es");
  });

  it("transactional mails: seeded with the built-in Spanish, staff's Spanish edit reaches a Spanish reader", async () => {
    const { transactionalMails } = t.app.deps.services;
    const [welcome] = await t.database.db
      .select()
      .from(emailTemplates)
      .where(eq(emailTemplates.slug, "welcome"));
    expect(welcome?.subjectEs).toBe(builtInText("welcome", "es")?.subject);

    const reader = { email: "lucia@test.local", fullName: "Lucía", speak: "ES" as const };
    const before = await transactionalMails.compose("welcome", reader, "https://parlons.test/es/dashboard");
    expect(before.subject).toBe("Te damos la bienvenida a Parlons");
    expect(before.text).toContain("Hola, Lucía:");

    const edited = await call("PUT", `/v1/email-templates/${welcome?.id}`, {
      ...TRANSACTIONAL_DEFAULTS.welcome,
      slug: "welcome",
      subject_es: "¡Bienvenida, {{full_name}}!",
      body_es: "Tu cuenta está lista: {{action_url}}",
    });
    expect(edited.statusCode).toBe(200);
    const after = await transactionalMails.compose("welcome", reader, "https://parlons.test/es/dashboard");
    expect(after.subject).toBe("¡Bienvenida, Lucía!");
    expect(after.text).toBe("Tu cuenta está lista: https://parlons.test/es/dashboard");
    const english = await transactionalMails.compose("welcome", { ...reader, speak: "EN" }, "https://x.test");
    expect(english.subject).toBe("Welcome to Parlons");
  });
});

describe("campaigns with Spanish", () => {
  const campaignTexts = {
    subject_fr: "Des nouvelles, {{full_name}}",
    subject_en: "News for you, {{full_name}}",
    body_fr: "Bonjour {{full_name}}",
    body_en: "Hello {{full_name}}",
  };
  const readers = { es: "", en: "", fr: "" };

  beforeAll(async () => {
    for (const lang of ["es", "en", "fr"] as const) {
      const email = `${lang}@spanish-campaign.test`;
      await t.createUser({ email, speak: lang.toUpperCase() as "FR" | "EN" | "ES" });
      readers[lang] = email;
    }
  });

  /** Queues a campaign for the three readers, sends it, and gives each reader's mail. */
  async function sendToReaders(content: object) {
    t.mailbox.messages.length = 0;
    const res = await call("POST", "/v1/send-mail/send", { ...content, audience: { role: "CUSTOMER" } });
    expect(res.statusCode, res.body).toBe(202);
    await startMailWorker({
      queue: t.app.deps.services.mailDeliveries,
      mailer: t.mailbox,
      log: t.app.log,
      schedule: false,
    }).runOnce();
    const mail = (email: string) => {
      const m = t.mailbox.last(email);
      return { subject: m?.subject, text: m?.text.split("\n")[0] };
    };
    return {
      campaign: res.json().data.campaign,
      es: mail(readers.es),
      en: mail(readers.en),
      fr: mail(readers.fr),
    };
  }

  it("each reader gets the campaign in their language, Spanish included", async () => {
    const sent = await sendToReaders({
      ...campaignTexts,
      subject_es: "Noticias para ti, {{full_name}}",
      body_es: "Hola {{full_name}}",
    });
    expect(sent.campaign).toMatchObject({
      subject_es: "Noticias para ti, {{full_name}}",
      body_es: "Hola {{full_name}}",
    });
    const name = (email: string) => email.split("@")[0];
    expect(sent.es).toEqual({
      subject: `Noticias para ti, ${name(readers.es)}`,
      text: `Hola ${name(readers.es)}`,
    });
    expect(sent.en).toEqual({
      subject: `News for you, ${name(readers.en)}`,
      text: `Hello ${name(readers.en)}`,
    });
    expect(sent.fr).toEqual({
      subject: `Des nouvelles, ${name(readers.fr)}`,
      text: `Bonjour ${name(readers.fr)}`,
    });
    // the unsubscribe line is in Spanish too, under a /es link
    expect(t.mailbox.last(readers.es)?.text).toMatch(/http:\/\/parlons\.test\/es\//);
  });

  it("without a Spanish text (left out, or empty), a Spanish reader gets the English one", async () => {
    for (const content of [campaignTexts, { ...campaignTexts, subject_es: "", body_es: "" }]) {
      const sent = await sendToReaders(content);
      expect(sent.campaign).toMatchObject({ subject_es: "", body_es: "" });
      expect(sent.es.subject).toBe(`News for you, es`);
      expect(sent.es.text).toBe("Hello es");
      expect(sent.fr.subject).toBe("Des nouvelles, fr");
    }
  });

  it("a campaign from a template copies its Spanish", async () => {
    const created = await call("POST", "/v1/email-templates", {
      ...campaignTexts,
      name: "Promo",
      slug: "promo-es",
      subject_es: "Oferta, {{full_name}}",
      body_es: "Hola de nuevo {{full_name}}",
    });
    expect(created.statusCode, created.body).toBe(201);
    const sent = await sendToReaders({ template_id: created.json().data.template.id });
    expect(sent.campaign).toMatchObject({ subject_es: "Oferta, {{full_name}}" });
    expect(sent.es).toEqual({ subject: "Oferta, es", text: "Hola de nuevo es" });
    expect(sent.en.subject).toBe("News for you, en");
  });

  it("a Spanish-speaking staff member's test comes in Spanish", async () => {
    const { db } = t.database;
    await db.update(users).set({ speak: "ES" }).where(eq(users.email, "admin@test.local"));
    try {
      const res = await call("POST", "/v1/send-mail/test", {
        ...campaignTexts,
        subject_es: "Noticias, {{full_name}}",
        body_es: "Hola {{full_name}}",
      });
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json().data.subject).toBe("[Prueba] Noticias, Admin");
      const english = await call("POST", "/v1/send-mail/test", campaignTexts);
      expect(english.json().data.subject).toBe("[Prueba] News for you, Admin");
      await outboxWorkerOf(t).runOnce();
    } finally {
      await db.update(users).set({ speak: "FR" }).where(eq(users.email, "admin@test.local"));
    }
  });

  it("refuses half a Spanish text, unknown variables in it, and Spanish texts beside a template", async () => {
    const half = await call("POST", "/v1/send-mail", {
      ...campaignTexts,
      body_es: "Hola",
      audience: {},
    });
    expect(half.statusCode).toBe(422);
    expect(Object.keys(half.json().errors)).toEqual(["subject_es"]);
    const unknown = await call("POST", "/v1/send-mail/test", {
      ...campaignTexts,
      subject_es: "Hola",
      body_es: "Hola {{nombre}}",
    });
    expect(unknown.statusCode).toBe(422);
    expect(Object.keys(unknown.json().errors)).toEqual(["body_es"]);
    const both = await call("POST", "/v1/send-mail/send", {
      template_id: randomUUID(),
      subject_es: "Hola",
      body_es: "Hola",
      audience: {},
    });
    expect(both.statusCode).toBe(422);
    expect(Object.keys(both.json().errors).sort()).toEqual(["body_es", "subject_es"]);
  });

  it("the preview shows what a Spanish reader gets", async () => {
    const spanishToo = await call("POST", "/v1/email-templates/preview", {
      ...campaignTexts,
      subject_es: "Para {{full_name}}",
      body_es: "Hola, ver {{site_url}}",
    });
    expect(spanishToo.statusCode, spanishToo.body).toBe(200);
    expect(spanishToo.json().data.es).toMatchObject({
      lang: "es",
      subject: "Para Camille Martin",
      text: "Hola, ver http://parlons.test/es",
    });
    const english = await call("POST", "/v1/email-templates/preview", {
      ...campaignTexts,
      subject_es: "Solo",
    });
    expect(english.json().data.es).toMatchObject({ lang: "en", subject: "News for you, Camille Martin" });
  });
});
