import { asc } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { courseWithLessons, createOnceOffer } from "../../../test/helpers/learning";
import { receipts } from "../../db/schema";
import { receiptNumber } from "./receipts";

// Invoices with VAT (issue 28, part 5): prices are tax included; the seller's scheme (franchise,
// its own country's rate, or the EU one-stop shop) and the buyer's declared country give the rate,
// from the rates table; the invoice prints the rate and the VAT of its line, the totals without
// and with VAT, or the mention that says why there is none; a credit note reverses the same VAT.
let t: TestContext;
let admin: string;
let offer: string;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.adminToken();
  const { course } = await courseWithLessons(t, admin);
  offer = await createOnceOffer(t, admin, [course.id]);
});
afterAll(() => t.close());

const seller = (payload: object) =>
  t.request({ method: "POST", url: "/api/v1/settings", token: admin, payload: { seller: payload } });

/** A learner buys the offer through the demo checkout, declaring `country`; its invoice. */
async function invoiceFor(country?: string) {
  const learner = await t.createUser();
  const started = await t.request({
    method: "POST",
    url: "/api/v1/purchases",
    token: learner.token,
    payload: { plan_id: offer, ...(country && { country }) },
  });
  expect(started.statusCode, started.body).toBe(201);
  const id = started.json().data.purchase.id;
  const paid = await t.request({
    method: "POST",
    url: `/api/v1/purchases/${id}/demo/approve`,
    token: learner.token,
  });
  expect(paid.statusCode, paid.body).toBe(200);
  const receiptId = paid.json().data.purchase.receipt.id;
  const res = await t.request({ method: "GET", url: `/api/v1/receipts/${receiptId}`, token: learner.token });
  expect(res.statusCode, res.body).toBe(200);
  return { id, receipt: res.json().data.receipt, learner };
}

describe("VAT on invoices", () => {
  it("settings: charging VAT needs the seller's VAT number, the one-stop shop a seller in the EU", async () => {
    const noNumber = await seller({ vat_scheme: "oss", vat_number: "" });
    expect(noNumber.statusCode).toBe(422);
    expect(Object.keys(noNumber.json().errors)).toContain("seller.vat_number");
    const outside = await seller({ vat_scheme: "oss", vat_number: "CHE123456789", country: "CH" });
    expect(outside.statusCode).toBe(422);
    expect(Object.keys(outside.json().errors)).toContain("seller.country");
    const badCountry = await seller({ country: "France" });
    expect(badCountry.statusCode).toBe(422);
    const saved = await seller({
      vat_scheme: "domestic",
      vat_number: "fr 12 345678901".replaceAll(" ", ""),
      country: "fr",
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data.setting.seller).toMatchObject({
      country: "FR",
      vat_number: "FR12345678901",
      vat_scheme: "domestic",
    });
  });

  it("franchise (the default): no VAT, the mention of art. 293 B du CGI", async () => {
    await seller({ vat_scheme: "exempt" });
    const { receipt } = await invoiceFor("DE");
    expect(receipt.vat).toEqual({ rate: 0, amount: 0, net: 4900, note: "exempt" });
    expect(receipt.buyer.country).toBe("DE");
  });

  it("domestic: the seller's own rate for every EU consumer, none outside the EU", async () => {
    await seller({ vat_scheme: "domestic", vat_number: "FR12345678901", country: "FR" });
    const german = await invoiceFor("DE");
    // 49.00 tax included at 20 %: 40.83 + 8.17
    expect(german.receipt.vat).toEqual({ rate: 2000, amount: 817, net: 4083, note: null });
    expect(german.receipt.seller).toMatchObject({ country: "FR", vat_number: "FR12345678901" });
    const american = await invoiceFor("US");
    expect(american.receipt.vat).toEqual({ rate: 0, amount: 0, net: 4900, note: "outside_eu" });
    // no country declared: the seller's
    expect((await invoiceFor()).receipt.vat.rate).toBe(2000);
  });

  it("one-stop shop: the rate of the consumer's country, from the rates table; the credit note reverses it", async () => {
    await seller({ vat_scheme: "oss", vat_number: "FR12345678901", country: "FR" });
    const cases: [string, number, number][] = [
      ["DE", 1900, 782], // 4900 × 19/119 = 782.35
      ["HU", 2700, 1042], // 4900 × 27/127 = 1041.73
      ["FI", 2550, 996], // 4900 × 25.5/125.5 = 995.62
      ["LU", 1700, 712], // 4900 × 17/117 = 711.97
      ["FR", 2000, 817],
    ];
    for (const [country, rate, vat] of cases) {
      const { receipt } = await invoiceFor(country);
      expect(receipt.vat, country).toEqual({ rate, amount: vat, net: 4900 - vat, note: null });
      expect(receipt.amount).toBe(4900);
    }
    const { id, receipt } = await invoiceFor("IT");
    expect(receipt.vat).toMatchObject({ rate: 2200, amount: 884 });
    const refunded = await t.request({ method: "POST", url: `/api/v1/purchases/${id}/refund`, token: admin });
    expect(refunded.statusCode, refunded.body).toBe(200);
    const creditId = refunded.json().data.purchase.credit_note.id;
    const credit = await t.request({ method: "GET", url: `/api/v1/receipts/${creditId}`, token: admin });
    expect(credit.json().data.receipt).toMatchObject({
      kind: "credit_note",
      buyer: { country: "IT" },
      vat: { rate: 2200, amount: 884, net: 4016 },
    });
  });

  it("the invoice's PDF in fr, en and es", async () => {
    const { receipt, learner } = await invoiceFor("ES");
    for (const lang of ["fr", "en", "es"]) {
      const pdf = await t.request({
        method: "GET",
        url: `/api/v1/receipts/${receipt.id}/pdf?lang=${lang}`,
        token: learner.token,
      });
      expect(pdf.statusCode).toBe(200);
      expect(pdf.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    }
  });

  it("invoices and credit notes of concurrent course payments and refunds share one series, without gap or duplicate", async () => {
    await seller({ vat_scheme: "oss", vat_number: "FR12345678901", country: "FR" });
    const countries = ["DE", "ES", "IT", "PT", "NL", "BE", "AT", "PL", "SE", "IE"];
    const bought = await Promise.all(countries.map((country) => invoiceFor(country)));
    await Promise.all(
      bought
        .slice(0, 4)
        .map(({ id }) => t.request({ method: "POST", url: `/api/v1/purchases/${id}/refund`, token: admin })),
    );
    const rows = await t.database.db.select().from(receipts).orderBy(asc(receipts.year), asc(receipts.seq));
    const year = rows[0]?.year ?? 0;
    expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
    expect(rows.map((r) => r.number)).toEqual(rows.map((_, i) => receiptNumber(year, i + 1)));
    expect(rows.filter((r) => r.kind === "credit_note").length).toBeGreaterThanOrEqual(4);
    for (const [i, { receipt }] of bought.entries()) expect(receipt.buyer.country).toBe(countries[i]);
  });

  it("a declared country that is not one is refused", async () => {
    const learner = await t.createUser();
    const res = await t.request({
      method: "POST",
      url: "/api/v1/purchases",
      token: learner.token,
      payload: { plan_id: offer, country: "Deutschland" },
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toContain("country");
  });
});
