import type { CheckoutProvider, Locale } from "@parlons/contract";
import type { PaymentProviders } from "../../integrations/payments";
import { validationFailed } from "../../lib/errors";
import type { PaymentOutcome } from "./transition";

/**
 * How long a checkout waits for the buyer's approval: PayPal's approval link lasts about three
 * hours; a checkout pending longer is closed by the checkout sweep (its coupon's use given back).
 */
export const CHECKOUT_EXPIRY_MS = 3 * 3_600_000;

/** The learner's pick must be the active provider (the card button is PayPal's card funding). */
export function checkCheckoutProvider(
  providers: PaymentProviders,
  picked: CheckoutProvider | undefined,
): void {
  const wanted = picked === "card" ? "paypal" : (picked ?? providers.active.name);
  if (wanted !== providers.active.name)
    throw validationFailed({ provider: [`The ${picked} checkout is not available here`] });
}

/** The provider's locale (BCP 47 with region) for the web's language. */
export const providerLocale = (locale: Locale | undefined) =>
  locale === "en" ? "en-GB" : locale === "es" ? "es-ES" : "fr-FR";

/** A checkout started at the provider, counted for /metrics as started or failed. */
export async function countedCheckout<T>(
  provider: string,
  work: Promise<T>,
  onPaymentEvent: ((provider: string, outcome: PaymentOutcome) => void) | undefined,
): Promise<T> {
  try {
    const done = await work;
    onPaymentEvent?.(provider, "checkout_started");
    return done;
  } catch (err) {
    onPaymentEvent?.(provider, "checkout_failed");
    throw err;
  }
}
