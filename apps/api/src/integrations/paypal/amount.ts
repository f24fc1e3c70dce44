/**
 * PayPal sends and expects amounts as decimal strings ("9.99"); we keep integer minor units
 * (cents). Conversions are done on strings and integers only, so no float rounding can creep in.
 */

/** Currencies that PayPal accepts only without decimals (their minor unit is the unit itself). */
const ZERO_DECIMAL_CURRENCIES = new Set(["HUF", "JPY", "TWD"]);

function decimalsOf(currency: string | undefined): 0 | 2 {
  return currency !== undefined && ZERO_DECIMAL_CURRENCIES.has(currency.toUpperCase()) ? 0 : 2;
}

/** 999 → "9.99", 1000 → "10.00", 50 → "0.50" (and 500 JPY → "500"). */
export function centsToPaypalValue(cents: number, currency?: string): string {
  if (!Number.isSafeInteger(cents))
    throw new RangeError(`Amount must be an integer number of cents: ${cents}`);
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  if (decimalsOf(currency) === 0) return `${sign}${abs}`;
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

const VALUE_PATTERN = /^(-?)(\d*)(?:\.(\d+))?$/;

/** "9.99" → 999, "10" → 1000, "0.5" → 50; throws on anything that is not an exact amount. */
export function paypalValueToCents(value: string, currency?: string): number {
  const match = VALUE_PATTERN.exec(value.trim());
  const whole = match?.[2] ?? "";
  const fraction = (match?.[3] ?? "").replace(/0+$/, "");
  const decimals = decimalsOf(currency);
  if (!match || (whole === "" && match[3] === undefined) || fraction.length > decimals) {
    throw new RangeError(`Not an exact PayPal amount: "${value}"`);
  }
  const minor = Number(`${whole || "0"}${fraction.padEnd(decimals, "0")}`);
  if (!Number.isSafeInteger(minor)) throw new RangeError(`PayPal amount out of range: "${value}"`);
  return match[1] === "-" && minor !== 0 ? -minor : minor;
}
