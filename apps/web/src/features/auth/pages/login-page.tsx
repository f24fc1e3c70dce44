import { type SecondFactorChallenge, SOCIAL_ERRORS, type SocialError } from "@parlons/contract";
import { Alert, Spin } from "antd";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useNavigate, useSearchParams } from "react-router";
import { useAuthModals } from "@/components/auth-modal-context";
import { ApiError, errorText } from "@/lib/api-error";
import { afterLoginPath, REDIRECT_PARAM } from "@/lib/redirect";
import { startSession, useSession } from "@/lib/session";
import { useLang } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { socialLogin } from "../api/auth-api";
import { AuthCard } from "../components/auth-card";
import { LoginForm } from "../components/login-form";
import { SecondFactorStep } from "../components/second-factor-step";

/**
 * `/auth/login` and `/login`. `/login?token=…&provider=…` is also the social sign-in
 * callback (spec §4): the provider token is exchanged for our session.
 */
export function LoginPage() {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  const modals = useAuthModals();
  const session = useSession();
  const [params] = useSearchParams();
  const target = afterLoginPath(params.get(REDIRECT_PARAM), lang);
  const socialToken = params.get("token");
  const provider = params.get("provider");
  const [socialState, setSocialState] = useState<"idle" | "pending" | "failed">(
    socialToken && provider ? "pending" : "idle",
  );
  const [socialError, setSocialError] = useState<string | null>(null);
  const [socialChallenge, setSocialChallenge] = useState<SecondFactorChallenge | null>(null);
  const redirectError = params.get("social_error");
  const started = useRef(false);
  usePageTitle(t("auth:login.pageTitle"));

  useEffect(() => {
    if (!socialToken || !provider || started.current) return;
    started.current = true;
    socialLogin(provider, socialToken)
      .then(async (outcome) => {
        if ("secondFactor" in outcome) {
          setSocialChallenge(outcome.secondFactor);
          setSocialState("idle");
          return;
        }
        await startSession(outcome.accessToken, outcome.expiresIn);
        navigate(target, { replace: true });
      })
      .catch((error: unknown) => {
        // Spec §8: failed social sign-in steps are only logged.
        console.error("[social-login]", error);
        // a known refusal (disabled account, expired ticket…) says why; anything else stays generic
        if (error instanceof ApiError && error.status < 500 && error.code !== "SOCIAL_LOGIN_FAILED")
          setSocialError(errorText(error));
        setSocialState("failed");
      });
  }, [socialToken, provider, navigate, target]);

  if (session.status === "authenticated" && socialState !== "pending")
    return <Navigate to={target} replace />;

  const providerName =
    provider === "github" ? "GitHub" : provider ? provider.charAt(0).toUpperCase() + provider.slice(1) : "";
  // `?social_error=` from the server's callback (the provider round trip failed before any ticket)
  const redirectErrorText = redirectError
    ? t(`auth:login.socialErrors.${isSocialError(redirectError) ? redirectError : "failed"}`)
    : null;
  return (
    <AuthCard title={t("auth:login.pageTitle")} intro={t("auth:login.intro")}>
      {socialChallenge ? (
        <SecondFactorStep
          challenge={socialChallenge}
          onSuccess={() => navigate(target, { replace: true })}
          onRestart={() => setSocialChallenge(null)}
        />
      ) : socialState === "pending" ? (
        <Spin tip={t("auth:login.socialPending", { provider: providerName })}>
          <div style={{ minHeight: 120 }} />
        </Spin>
      ) : (
        <>
          {socialState === "failed" && (
            <Alert
              type="error"
              showIcon
              style={{ marginBottom: 16 }}
              data-testid="social-error"
              title={socialError ?? t("auth:login.socialFailed", { provider: providerName })}
            />
          )}
          {socialState === "idle" && redirectErrorText && (
            <Alert
              type="error"
              showIcon
              style={{ marginBottom: 16 }}
              data-testid="social-error"
              title={redirectErrorText}
            />
          )}
          <LoginForm
            idPrefix="login-page"
            onCreateAccount={() => modals.show("signup")}
            onSuccess={() => navigate(target, { replace: true })}
          />
        </>
      )}
    </AuthCard>
  );
}

function isSocialError(value: string): value is SocialError {
  return (SOCIAL_ERRORS as readonly string[]).includes(value);
}
