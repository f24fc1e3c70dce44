import { z } from "zod";
import { tokenData } from "./auth";
import { envelope } from "./common";
import { passkeyAuthenticationResponse, passkeyRegisterBody } from "./passkeys";

/** Second factors a sign-in may ask for. */
export const SECOND_FACTOR_METHODS = ["totp", "recovery", "passkey"] as const;
export const secondFactorMethod = z.enum(SECOND_FACTOR_METHODS);
export type SecondFactorMethod = z.infer<typeof secondFactorMethod>;

/** A six-digit code of an authenticator app (spaces typed between digits are dropped). */
export const totpCode = z
  .string({ error: "Enter the code" })
  .transform((v) => v.replace(/\s+/g, ""))
  .pipe(z.string().regex(/^\d{6}$/, "Enter the 6-digit code of your app"));

/** A recovery code as printed (`abcd-efgh-jkmn`); case, spaces and dashes do not matter. */
export const recoveryCodeInput = z
  .string({ error: "Enter the code" })
  .transform((v) => v.toLowerCase().replace(/[\s-]+/g, ""))
  .pipe(z.string().regex(/^[a-z0-9]{12}$/, "Enter one of your recovery codes"));

/**
 * What a sign-in answers instead of tokens when the account needs a second factor: a ticket for
 * the next step (`POST /v1/auth/second-factor/verify`). `setup` is true when the account must set
 * one up first (staff while the setting requires it): the ticket then opens the setup steps.
 */
export const secondFactorChallenge = z
  .object({
    ticket: z.string(),
    methods: z.array(secondFactorMethod),
    setup: z.boolean(),
    expiresIn: z.number().int(),
  })
  .meta({ id: "SecondFactorChallenge" });
export type SecondFactorChallenge = z.infer<typeof secondFactorChallenge>;

/** `POST /v1/user/authenticate`: tokens, or the second-factor step (`data.secondFactor`). */
export const signInResponse = envelope(
  z.union([tokenData, z.object({ secondFactor: secondFactorChallenge })]),
);
export type SignInResponse = z.infer<typeof signInResponse>;

const ticket = z.string({ error: "The sign-in step has expired" }).min(20).max(100);

export const secondFactorVerifyBody = z.discriminatedUnion("method", [
  z.object({ ticket, method: z.literal("totp"), code: totpCode }),
  z.object({ ticket, method: z.literal("recovery"), code: recoveryCodeInput }),
]);

/** `POST /v1/auth/second-factor/passkey/verify`: the ticket and the passkey's answer. */
export const secondFactorPasskeyBody = z.object({ ticket, response: passkeyAuthenticationResponse });
export type SecondFactorPasskeyBody = z.input<typeof secondFactorPasskeyBody>;
export type SecondFactorVerifyBody = z.input<typeof secondFactorVerifyBody>;

export const secondFactorTicketBody = z.object({ ticket });

/**
 * `POST /v1/auth/second-factor/setup/passkey`: during a sign-in that must set up a second factor,
 * the passkey the browser created (its name and answer) ends the sign-in.
 */
export const secondFactorPasskeySetupBody = passkeyRegisterBody.extend({ ticket });
export type SecondFactorPasskeySetupBody = z.input<typeof secondFactorPasskeySetupBody>;

/** A new authenticator secret, to scan (QR code as a data: URL) or type. */
export const totpSetup = z.object({
  secret: z.string(),
  otpauthUrl: z.string(),
  qrCode: z.string(),
});
export type TotpSetup = z.infer<typeof totpSetup>;
export const totpSetupResponse = envelope(totpSetup);

export const recoveryCodesData = z.object({ recoveryCodes: z.array(z.string()) });
export const recoveryCodesResponse = envelope(recoveryCodesData);

/** The setup finished during a sign-in: the session's tokens and the recovery codes, shown once. */
export const secondFactorSetupDoneResponse = envelope(tokenData.extend(recoveryCodesData.shape));

export const totpCodeBody = z.object({ code: totpCode });
/** Turning the app off or renewing the recovery codes: a code of the app, or a recovery code. */
export const secondFactorConfirmBody = z.object({
  code: z
    .string({ error: "Enter the code" })
    .trim()
    .min(1, "Enter the code")
    .max(40)
    .transform((v) => v.toLowerCase().replace(/[\s-]+/g, "")),
});

/** `GET /v1/user/me/two-factor`: what protects the account. */
export const twoFactorStatus = z.object({
  totp: z.object({ enabled: z.boolean(), enabledAt: z.string().nullable() }),
  recoveryCodesLeft: z.number().int(),
  /** Passkeys registered (each is a second factor too). */
  passkeys: z.number().int(),
  /** Staff while the setting requires a second factor: it cannot be turned off. */
  required: z.boolean(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatus>;
export const twoFactorStatusResponse = envelope(twoFactorStatus);
