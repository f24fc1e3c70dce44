import type { TotpSetup, TwoFactorStatus } from "@parlons/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api";
import { profileKeys } from "./profile-keys";

interface Envelope<T> {
  message?: string;
  data: T;
}

export const twoFactorQuery = queryOptions({
  queryKey: profileKeys.twoFactor,
  queryFn: ({ signal }) =>
    api<Envelope<TwoFactorStatus>>("/v1/user/me/two-factor", { signal }).then((r) => r.data),
});

/** A new secret and its QR code; the app is on only once a code of it is confirmed. */
export const startTotpSetup = () =>
  api<Envelope<TotpSetup>>("/v1/user/me/two-factor/totp/setup", { method: "POST" }).then((r) => r.data);

export const enableTotp = (code: string) =>
  api<Envelope<{ recoveryCodes: string[] }>>("/v1/user/me/two-factor/totp/enable", {
    method: "POST",
    body: { code },
    silent: true,
  }).then((r) => r.data.recoveryCodes);

export const disableTotp = (code: string) =>
  api<{ message: string }>("/v1/user/me/two-factor/totp/disable", {
    method: "POST",
    body: { code },
    silent: true,
  });

export const renewRecoveryCodes = (code: string) =>
  api<Envelope<{ recoveryCodes: string[] }>>("/v1/user/me/two-factor/recovery-codes", {
    method: "POST",
    body: { code },
    silent: true,
  }).then((r) => r.data.recoveryCodes);
