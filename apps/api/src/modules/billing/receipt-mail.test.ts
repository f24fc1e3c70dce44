import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Speak } from "@parlons/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { courseWithLessons, createOnceOffer } from "../../../test/helpers/learning";
import { createMailer } from "../../integrations/mail/mailer";
import { startOutboxWorker } from "../../jobs/outbox-worker";

// The mail sent after a payment shows the invoice's VAT like its page and PDF (issue 28): the total
// without VAT, the rate and the VAT, the total paid; or the amount and the mention saying why there
// is none. Read from the .eml the outbox writes to disk, in the learner's language.
let t: TestContext;
let admin: string;
let offer: string;
const dir = mkdtempSync(path.join(tmpdir(), "parlons-receipt-mail-"));
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.adminToken();
  const { course } = await courseWithLessons(t, admin);
  offer = await createOnceOffer(t, admin, [course.id]);
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The text (or HTML) part of an .eml as nodemailer writes it (quoted-printable, base64 or plain). */
function textOf(eml: string, type: "plain" | "html" = "plain"): string {
  const part = new RegExp(
    `Content-Type: text\\/${type}[^\\n]*\\nContent-Transfer-Encoding: ([\\w-]+)\\n\\n([\\s\\S]*?)(?:\\n--|$)`,
  ).exec(eml);
  if (!part?.[2]) throw new Error(`no ${type} part in\n${eml}`);
  const body = part[2];
  if (part[1] === "base64") return Buffer.from(body, "base64").toString("utf8");
  if (part[1] !== "quoted-printable") return body;
  const bytes = body
    .replace(/=\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

/** A learner speaking `speak` buys the offer (demo checkout); the text of the mail written to disk. */
async function receiptMail(speak: Speak, country: string): Promise<string> {
  return textOf(await receiptEml(speak, country));
}

/** The same, the whole .eml. */
async function receiptEml(speak: Speak, country: string): Promise<string> {
  const learner = await t.createUser({ speak });
  const started = await t.request({
    method: "POST",
    url: "/api/v1/purchases",
    token: learner.token,
    payload: { plan_id: offer, country },
  });
  expect(started.statusCode, started.body).toBe(201);
  const paid = await t.request({
    method: "POST",
    url: `/api/v1/purchases/${started.json().data.purchase.id}/demo/approve`,
    token: learner.token,
  });
  expect(paid.statusCode, paid.body).toBe(200);
  const disk = createMailer({ outboxDir: dir, from: "Parlons <no-reply@parlons.test>" });
  const files = new Map<string, string>();
  const worker = startOutboxWorker({
    outbox: t.app.deps.services.mailOutbox,
    mailer: {
      kind: "outbox",
      async send(message) {
        const sent = await disk.send(message);
        if (sent.file) files.set(message.to, sent.file);
        return sent;
      },
      close: () => disk.close(),
    },
    log: t.app.log,
    schedule: false,
  });
  await worker.runOnce();
  await worker.stop();
  const file = files.get(learner.email);
  if (!file) throw new Error("no receipt mail written for the learner");
  return readFileSync(file, "utf8");
}

const seller = async (payload: object) => {
  const res = await t.request({
    method: "POST",
    url: "/api/v1/settings",
    token: admin,
    payload: { seller: payload },
  });
  expect(res.statusCode, res.body).toBe(200);
};

describe("the receipt mail's VAT lines", () => {
  it("VAT charged: total without VAT, rate and VAT, total paid (fr, en, es)", async () => {
    await seller({ vat_scheme: "domestic", vat_number: "FR12345678901", country: "FR" });
    // 49.00 tax included at 20 %: 40.83 + 8.17
    const fr = await receiptMail("FR", "FR");
    expect(fr).toMatch(/Total HT\s:\s40,83\s€/);
    expect(fr).toMatch(/TVA 20\s%\s:\s8,17\s€/);
    expect(fr).toMatch(/Total TTC payé\s:\s49,00\s€/);
    const en = await receiptMail("EN", "FR");
    expect(en).toContain("Total excl. VAT: €40.83");
    expect(en).toMatch(/VAT 20\s?%: €8\.17/);
    expect(en).toContain("Total paid incl. VAT: €49.00");
    const es = await receiptMail("ES", "FR");
    expect(es).toMatch(/40,83\s€/);
    expect(es).toMatch(/IVA 20\s%: 8,17\s€/);
  });

  it("no VAT: the amount and the mention (franchise, consumer outside the EU)", async () => {
    await seller({ vat_scheme: "exempt" });
    const fr = await receiptMail("FR", "FR");
    expect(fr).toContain("TVA non applicable, art. 293 B du CGI");
    expect(fr).not.toContain("Total HT");
    const es = await receiptMail("ES", "ES");
    expect(es).toMatch(/49,00\s€/);
    await seller({ vat_scheme: "domestic", vat_number: "FR12345678901", country: "FR" });
    const en = await receiptMail("EN", "US");
    expect(en).toContain("VAT not applicable: customer established outside the European Union");
    expect(en).toContain("Amount: €49.00");
  });
});

describe("the receipt mail's layout (issue 24)", () => {
  it("number, date and amount each stand on a line of their own, in the text and in the HTML", async () => {
    await seller({ vat_scheme: "exempt" });
    const eml = await receiptEml("EN", "FR");
    const lines = textOf(eml).split("\n");
    const number = lines.find((l) => /^Number: \S+$/.test(l));
    const date = lines.find((l) => /^Payment date: .*\d{4}$/.test(l));
    expect(number, textOf(eml)).toBeDefined();
    expect(date, textOf(eml)).toBeDefined();
    expect(lines).toContain("Amount: €49.00");
    // in the HTML, a tag between them (a line break or a paragraph), never one run of text
    const html = textOf(eml, "html");
    const runs = html.split(/<[^>]+>/).map((run) => run.trim());
    expect(runs).toContain(number);
    expect(runs).toContain(date);
    expect(runs).toContain("Amount: €49.00");
  });
});
