import type {
  AuthenticateBody,
  SecondFactorChallenge,
  SecondFactorVerifyBody,
  SelfRegisterBody,
  TotpSetup,
} from "@parlons/contract";
import { queryOptions, useMutation, useQuery } from "@tanstack/react-query";
import { api } from "@/lib/api";

/** The sign-in pages' query keys. */
const authKeys = {
  providers: ["auth", "providers"] as const,
  activation: (token: string) => ["auth", "activate", token] as const,
  resetToken: (token: string) => ["auth", "reset-token", token] as const,
};

interface Envelope<T> {
  message?: string;
  data: T;
}
export interface TokenData {
  accessToken: string;
  expiresIn: number;
}

/** A sign-in's answer: the session's token, or the second-factor step it needs first. */
export type SignInOutcome = TokenData | { secondFactor: SecondFactorChallenge };

/** `POST /v1/user/authenticate`: the caller shows the success message or the error. */
export function authenticate(body: AuthenticateBody) {
  return api<Envelope<SignInOutcome>>("/v1/user/authenticate", {
    method: "POST",
    body,
    silent: true,
    noRefresh: true,
  });
}

/** `POST /v1/user/self-register` with the spec's signup payload. */
export function selfRegister(body: SelfRegisterBody) {
  return api<Envelope<{ id: string; email: string; status: "PENDING" | "ACTIVE" }>>(
    "/v1/user/self-register",
    {
      method: "POST",
      body,
      noRefresh: true,
    },
  );
}

export function resendActivation(email: string) {
  return api<Envelope<unknown>>("/v1/user/resend-activation", {
    method: "POST",
    body: { email },
    noRefresh: true,
  });
}

/** Lifts the lock wrong passwords put on an account, with the link mailed to its owner. */
function unlockAccount(token: string) {
  return api<Envelope<{ email: string }>>("/v1/auth/unlock", {
    method: "POST",
    body: { token },
    silent: true,
    noRefresh: true,
  });
}

function activateAccount(token: string) {
  return api<Envelope<unknown>>(`/v1/user/account-activate/${encodeURIComponent(token)}`, {
    silent: true,
    noRefresh: true,
  });
}

export function forgotPassword(email: string) {
  return api<Envelope<unknown>>("/v1/auth/forgot-password", {
    method: "POST",
    query: { email },
    noRefresh: true,
  });
}

function checkResetToken(token: string) {
  return api<Envelope<{ valid: boolean; email?: string }>>("/v1/user/checkPasswordResetToken", {
    method: "POST",
    body: { token },
    silent: true,
    noRefresh: true,
  });
}

export function resetForgotPassword(token: string, password: string) {
  return api<Envelope<unknown>>("/v1/auth/reset-forgot-password", {
    method: "POST",
    body: { token, password },
    noRefresh: true,
  });
}

export function changePassword(currentPassword: string, newPassword: string) {
  return api<Envelope<unknown>>("/v1/auth/change-password", {
    method: "POST",
    body: { currentPassword, newPassword },
  });
}

/**
 * `POST /v1/auth/social-login/{provider}?token=`: the spec's response carries `access_token`
 * (we also accept `data.accessToken`), or the second-factor step.
 */
export async function socialLogin(provider: string, token: string): Promise<SignInOutcome> {
  const res = await api<{
    access_token?: string;
    expiresIn?: number;
    data?: {
      access_token?: string;
      accessToken?: string;
      expiresIn?: number;
      secondFactor?: SecondFactorChallenge;
    };
  }>(`/v1/auth/social-login/${encodeURIComponent(provider)}`, {
    method: "POST",
    query: { token },
    body: {},
    silent: true,
    noRefresh: true,
  });
  if (res.data?.secondFactor) return { secondFactor: res.data.secondFactor };
  const accessToken = res.data?.accessToken ?? res.data?.access_token ?? res.access_token;
  if (!accessToken) throw new Error("No access token in the social login response");
  return { accessToken, expiresIn: res.data?.expiresIn ?? res.expiresIn ?? 0 };
}

/** `POST /v1/auth/second-factor/verify`: a code of the app or a recovery code finishes the sign-in. */
export function verifySecondFactor(body: SecondFactorVerifyBody) {
  return api<Envelope<TokenData>>("/v1/auth/second-factor/verify", {
    method: "POST",
    body,
    silent: true,
    noRefresh: true,
  });
}

/** During a sign-in that must set up an app first: its secret and QR code. */
export function startSetupAtSignIn(ticket: string) {
  return api<Envelope<TotpSetup>>("/v1/auth/second-factor/setup", {
    method: "POST",
    body: { ticket },
    silent: true,
    noRefresh: true,
  });
}

export function confirmSetupAtSignIn(ticket: string, code: string) {
  return api<Envelope<TokenData & { recoveryCodes: string[] }>>("/v1/auth/second-factor/setup/confirm", {
    method: "POST",
    body: { ticket, code },
    silent: true,
    noRefresh: true,
  });
}

/** Social sign-in providers configured on the server; none when the call fails. */
const providersQuery = queryOptions({
  queryKey: authKeys.providers,
  queryFn: async () => {
    try {
      const res = await api<Envelope<{ providers: string[] }>>("/v1/auth/providers", { silent: true });
      return res.data.providers.filter((p): p is string => typeof p === "string");
    } catch {
      return [];
    }
  },
  staleTime: 10 * 60_000,
});

export function useProviders() {
  return useQuery(providersQuery);
}

/** Where the browser starts the provider's sign-in (server side comes with social login). */
export function socialStartUrl(provider: string, lang: string): string {
  return `/api/v1/auth/oauth/${encodeURIComponent(provider)}?lang=${encodeURIComponent(lang)}`;
}

/** The unlock page's button: lifts the lock that wrong passwords put on the account. */
export function useUnlockAccount(token: string) {
  return useMutation({ mutationFn: () => unlockAccount(token) });
}

/** The account activation a mailed link asks for, done once per token (a re-render must not send it again). */
export function activationQuery(token: string) {
  return queryOptions({
    queryKey: authKeys.activation(token),
    queryFn: () => activateAccount(token),
    enabled: token.length > 0,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });
}

/** Whether a password-reset link's token is still valid. */
export function resetTokenQuery(token: string) {
  return queryOptions({
    queryKey: authKeys.resetToken(token),
    queryFn: async () => (await checkResetToken(token)).data.valid,
    enabled: token.length > 0,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
}
