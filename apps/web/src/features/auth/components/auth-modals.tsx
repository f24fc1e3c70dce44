import { lazy, type ReactNode, Suspense, useEffect, useMemo, useState } from "react";
import { useLocation } from "react-router";
import { type AuthModal, AuthModalContext, type AuthModals } from "@/components/auth-modal-context";
import { withAntd } from "@/components/with-antd";
import type { SignupStatus } from "./signup-form";

const AuthDialogs = lazy(async () => ({
  default: await withAntd(import("./auth-dialogs").then((m) => m.AuthDialogs)),
}));

/**
 * Login and signup modals of the public layout (spec §4): opening one closes the other,
 * both close on any route change, closing signup clears its success state.
 * A navigation may ask for one through `state.authModal` (e.g. `/register_old`).
 * The forms load on first opening, so that public pages do not carry them.
 */
export function AuthModalsProvider({ children }: { children: ReactNode }) {
  const location = useLocation();
  const [open, setOpen] = useState<AuthModal>(null);
  const [signupStatus, setSignupStatus] = useState<SignupStatus | null>(null);
  const [used, setUsed] = useState(false);
  if (open && !used) setUsed(true);

  const requested = (location.state as { authModal?: AuthModal } | null)?.authModal ?? null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: every navigation (location.key) closes the modals
  useEffect(() => {
    setOpen(requested);
    setSignupStatus(null);
  }, [location.key, requested]);

  const value = useMemo<AuthModals>(
    () => ({
      open,
      show: (modal) => {
        setSignupStatus(null);
        setOpen(modal);
      },
      close: () => {
        setSignupStatus(null);
        setOpen(null);
      },
    }),
    [open],
  );

  return (
    <AuthModalContext.Provider value={value}>
      {children}
      {used && (
        <Suspense fallback={null}>
          <AuthDialogs value={value} signupStatus={signupStatus} setSignupStatus={setSignupStatus} />
        </Suspense>
      )}
    </AuthModalContext.Provider>
  );
}
