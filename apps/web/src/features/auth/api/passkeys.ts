import type { Passkey, SignInResponse } from "@parlons/contract";
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/browser";
import { api } from "@/lib/api";
import { errorText } from "@/lib/api-error";
import { i18n } from "@/lib/i18n";

interface Envelope<T> {
  message?: string;
  data: T;
}
type TokenData = Extract<SignInResponse["data"], { accessToken: string }>;

/**
 * Whether this browser can create and use passkeys at all (buttons are hidden otherwise): the
 * library's own test, written here so that its code loads only when a passkey is used (issue 26).
 */
export const passkeysSupported = () =>
  typeof window !== "undefined" && typeof window.PublicKeyCredential === "function";

/** A refusal of the browser (the reader cancelled, no authenticator…), worded for the reader. */
class PasskeyBrowserError extends Error {}

/** What to tell the reader when a passkey step failed, in the browser or at the server. */
export const passkeyErrorText = (error: unknown) =>
  error instanceof PasskeyBrowserError ? error.message : errorText(error);

function browserError(error: unknown): never {
  const name = error instanceof Error ? error.name : "";
  const key =
    name === "NotAllowedError" || name === "AbortError"
      ? "auth:passkey.cancelled"
      : name === "InvalidStateError"
        ? "auth:passkey.exists"
        : "auth:passkey.browserFailed";
  throw new PasskeyBrowserError(i18n.t(key));
}

async function created(optionsJSON: PublicKeyCredentialCreationOptionsJSON) {
  const { startRegistration } = await import("@simplewebauthn/browser");
  return startRegistration({ optionsJSON }).catch(browserError);
}
async function asserted(optionsJSON: PublicKeyCredentialRequestOptionsJSON) {
  const { startAuthentication } = await import("@simplewebauthn/browser");
  return startAuthentication({ optionsJSON }).catch(browserError);
}

/** Profile: creates a passkey in the browser and registers it under this name. */
export async function addPasskey(name: string): Promise<Passkey> {
  const options = await api<Envelope<PublicKeyCredentialCreationOptionsJSON>>(
    "/v1/user/me/passkeys/options",
    {
      method: "POST",
      silent: true,
    },
  );
  const response = await created(options.data);
  const res = await api<Envelope<Passkey>>("/v1/user/me/passkeys", {
    method: "POST",
    body: { name, response },
    silent: true,
  });
  return res.data;
}

/** Sign-in with a passkey alone: the browser offers this site's passkeys. */
export async function signInWithPasskey(): Promise<TokenData> {
  const options = await api<Envelope<PublicKeyCredentialRequestOptionsJSON>>("/v1/auth/passkey/options", {
    method: "POST",
    silent: true,
    noRefresh: true,
  });
  const response = await asserted(options.data);
  const res = await api<Envelope<TokenData>>("/v1/auth/passkey/verify", {
    method: "POST",
    body: { response },
    silent: true,
    noRefresh: true,
  });
  return res.data;
}

/** The second step of a sign-in answered with one of the account's passkeys. */
export async function verifyWithPasskey(ticket: string): Promise<TokenData> {
  const options = await api<Envelope<PublicKeyCredentialRequestOptionsJSON>>(
    "/v1/auth/second-factor/passkey/options",
    { method: "POST", body: { ticket }, silent: true, noRefresh: true },
  );
  const response = await asserted(options.data);
  const res = await api<Envelope<TokenData>>("/v1/auth/second-factor/passkey/verify", {
    method: "POST",
    body: { ticket, response },
    silent: true,
    noRefresh: true,
  });
  return res.data;
}

/**
 * A sign-in that must set a second factor up (staff while the setting says so): the browser
 * creates a passkey for the ticket's account, registered under this name; the sign-in ends.
 */
export async function registerPasskeyAtSignIn(ticket: string, name: string): Promise<TokenData> {
  const options = await api<Envelope<PublicKeyCredentialCreationOptionsJSON>>(
    "/v1/auth/second-factor/setup/passkey/options",
    { method: "POST", body: { ticket }, silent: true, noRefresh: true },
  );
  const response = await created(options.data);
  const res = await api<Envelope<TokenData>>("/v1/auth/second-factor/setup/passkey", {
    method: "POST",
    body: { ticket, name, response },
    silent: true,
    noRefresh: true,
  });
  return res.data;
}
