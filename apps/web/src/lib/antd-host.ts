import { type ComponentType, useSyncExternalStore } from "react";

/**
 * The persistent antd host (toasts, notifications and confirm dialogs that outlive the page which
 * opened them), announced by the antd chunk when it first loads: the first chunk carries no antd.
 */
let host: ComponentType | null = null;
const listeners = new Set<() => void>();

export function announceAntdHost(component: ComponentType): void {
  if (host) return;
  host = component;
  for (const listener of listeners) listener();
}

export function useAntdHost(): ComponentType | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => host,
    () => null,
  );
}
