import { z } from "zod";
import { envelope } from "./common";

/** base64url as WebAuthn sends it (a few kilobytes at most). */
const b64url = (max: number) =>
  z
    .string({ error: "This passkey answer is not valid" })
    .max(max)
    .regex(/^[A-Za-z0-9_-]*={0,2}$/, "This passkey answer is not valid");
const transports = z
  .array(z.enum(["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"]))
  .max(7)
  .optional();
const credentialFields = {
  id: b64url(1400),
  rawId: b64url(1400),
  type: z.literal("public-key"),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
};

/** What `navigator.credentials.create()` answered, as @simplewebauthn/browser serialises it. */
export const passkeyRegistrationResponse = z.object({
  ...credentialFields,
  response: z.object({
    clientDataJSON: b64url(4000),
    attestationObject: b64url(16000),
    authenticatorData: b64url(4000).optional(),
    transports,
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: b64url(4000).optional(),
  }),
});

/** What `navigator.credentials.get()` answered. */
export const passkeyAuthenticationResponse = z.object({
  ...credentialFields,
  response: z.object({
    clientDataJSON: b64url(4000),
    authenticatorData: b64url(4000),
    signature: b64url(2000),
    userHandle: b64url(200).optional(),
  }),
});

export const passkeyName = z
  .string({ error: "Name this passkey" })
  .trim()
  .min(1, "Name this passkey")
  .max(60, "60 characters at most");

export const passkeyRegisterBody = z.object({ name: passkeyName, response: passkeyRegistrationResponse });
export type PasskeyRegisterBody = z.input<typeof passkeyRegisterBody>;
export const passkeyRenameBody = z.object({ name: passkeyName });
export const passkeySignInBody = z.object({ response: passkeyAuthenticationResponse });
export type PasskeySignInBody = z.input<typeof passkeySignInBody>;

/**
 * The options a browser passes to WebAuthn (`PublicKeyCredentialCreationOptionsJSON` or
 * `PublicKeyCredentialRequestOptionsJSON`): a challenge that works once, within 5 minutes.
 */
export const passkeyOptions = z
  .looseObject({ challenge: z.string(), timeout: z.number().optional() })
  .meta({ id: "PasskeyOptions" });
export const passkeyOptionsResponse = envelope(passkeyOptions);

export const passkey = z
  .object({
    id: z.uuid(),
    name: z.string(),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable(),
  })
  .meta({ id: "Passkey" });
export type Passkey = z.infer<typeof passkey>;
export const passkeyResponse = envelope(passkey);
export const passkeyListResponse = envelope(z.array(passkey));
