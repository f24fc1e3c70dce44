import { z } from "zod";

/**
 * Standard VAT rates of the 27 EU member states, in basis points (2000 = 20 %), as in force on
 * {@link VAT_RATES_DATE} (European Commission, "VAT rates applied in the Member States"; changes
 * of the last year: Slovakia 23 % from 2025-01-01, Estonia 24 % from 2025-07-01, Romania 21 %
 * from 2025-08-01, Finland 25.5 % since 2024-09-01). Update the table and its date together.
 */
export const EU_VAT_RATES = {
  AT: 2000,
  BE: 2100,
  BG: 2000,
  CY: 1900,
  CZ: 2100,
  DE: 1900,
  DK: 2500,
  EE: 2400,
  ES: 2100,
  FI: 2550,
  FR: 2000,
  GR: 2400,
  HR: 2500,
  HU: 2700,
  IE: 2300,
  IT: 2200,
  LT: 2100,
  LU: 1700,
  LV: 2100,
  MT: 1800,
  NL: 2100,
  PL: 2300,
  PT: 2300,
  RO: 2100,
  SE: 2500,
  SI: 2200,
  SK: 2300,
} as const satisfies Record<string, number>;
export const VAT_RATES_DATE = "2025-10-01";

export type EuCountry = keyof typeof EU_VAT_RATES;
export const EU_COUNTRIES = Object.keys(EU_VAT_RATES) as EuCountry[];
export const isEuCountry = (code: string): code is EuCountry => Object.hasOwn(EU_VAT_RATES, code);

/** A country as ISO 3166-1 alpha-2, upper case ("ZZ": a country outside the EU not named). */
export const countryCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, "A country code of two letters (ISO 3166-1)");

/**
 * How the seller charges VAT (prices are entered tax included in every scheme):
 * - exempt: the French franchise ("TVA non applicable, art. 293 B du CGI"), no VAT on any invoice;
 * - domestic: the seller's own country's rate for every EU consumer (sales under the EU threshold);
 * - oss: the EU one-stop shop, the rate of the consumer's country.
 * Consumers outside the EU pay no EU VAT in the last two (the service is supplied where they live).
 */
export const VAT_SCHEMES = ["exempt", "domestic", "oss"] as const;
export const vatScheme = z.enum(VAT_SCHEMES);
export type VatScheme = z.infer<typeof vatScheme>;

/** Why an invoice carries no VAT, printed as its legal mention (null: VAT is charged). */
export type VatNote = "exempt" | "outside_eu" | null;

/** The rate an invoice charges, in basis points, and the mention when it is none. */
export function vatRateFor(
  scheme: VatScheme,
  sellerCountry: string,
  buyerCountry: string | null,
): { rate: number; note: VatNote } {
  if (scheme === "exempt") return { rate: 0, note: "exempt" };
  // no declared country (a payment from before VAT): the seller's country
  const buyer = buyerCountry ?? sellerCountry;
  if (!isEuCountry(buyer)) return { rate: 0, note: "outside_eu" };
  const country = scheme === "oss" ? buyer : sellerCountry;
  return isEuCountry(country) ? { rate: EU_VAT_RATES[country], note: null } : { rate: 0, note: "outside_eu" };
}

/** The VAT inside an amount tax included (cents, rounded to the nearest cent), and the amount without it. */
export function splitVat(amountInclusive: number, rate: number): { net: number; vat: number } {
  const vat = Math.round((amountInclusive * rate) / (10000 + rate));
  return { net: amountInclusive - vat, vat };
}

/**
 * The country an invoice names: the one the buyer declared at checkout, unless the payment says
 * otherwise (the provider's country of the payer is evidence from a third party, and wins).
 */
export const invoiceCountry = (declared: string | null, ofPayment: string | null | undefined) =>
  ofPayment && ofPayment !== declared ? ofPayment : declared;

/** A country's name in a language ("DE" → "Allemagne" in fr), the code itself when unknown. */
export function countryName(code: string, lang: string): string {
  try {
    return new Intl.DisplayNames([lang], { type: "region", fallback: "code" }).of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * What an invoice says about VAT, signed like its amounts (a credit note's are negative): the
 * totals without and of VAT when it is charged, else the mention that says why not. Null for a
 * receipt issued before invoices carried VAT.
 */
export function invoiceVat(doc: {
  kind: "receipt" | "credit_note";
  vat: { rate: number; amount: number; net: number; note: VatNote };
}): { rate: number; net: number; vat: number; note: VatNote } | null {
  const { rate, amount, net, note } = doc.vat;
  if (rate === 0 && note === null) return null;
  const sign = doc.kind === "credit_note" ? -1 : 1;
  return { rate, net: sign * net, vat: sign * amount, note };
}
