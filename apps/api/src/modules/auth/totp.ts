import { Secret, TOTP } from "otpauth";

const PERIOD = 30;

function totpOf(secret: string, label = "") {
  return new TOTP({
    issuer: "Parlons",
    label,
    algorithm: "SHA1",
    digits: 6,
    period: PERIOD,
    secret: Secret.fromBase32(secret),
  });
}

/** A new 160-bit secret (RFC 4226's recommended size), base32 as authenticator apps type it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://` URI the QR code carries: Parlons and the account's address. */
export function otpauthUrl(secret: string, account: string): string {
  return totpOf(secret, account).toString();
}

/**
 * The 30-second step a code belongs to (one step either side accepted for clocks that drift),
 * or null when the code is wrong.
 */
export function totpStep(secret: string, code: string, now = Date.now()): number | null {
  const delta = totpOf(secret).validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD) + delta;
}
