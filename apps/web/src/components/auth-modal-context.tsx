import { createContext, useContext } from "react";

export type AuthModal = "login" | "signup" | null;

export interface AuthModals {
  open: AuthModal;
  /** Opening one modal closes the other (spec §4). */
  show: (modal: Exclude<AuthModal, null>) => void;
  close: () => void;
}

export const AuthModalContext = createContext<AuthModals>({
  open: null,
  show: () => undefined,
  close: () => undefined,
});

export function useAuthModals(): AuthModals {
  return useContext(AuthModalContext);
}
