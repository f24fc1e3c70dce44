/**
 * Short messages that outlive the button that raised them ("downloaded", "could not download"),
 * drawn without antd by components/toaster.tsx in the notices root (main.tsx): a page drawn
 * without antd tells its results the same way as one built with it. A message raised before the
 * toaster has loaded waits for it.
 */
export type ToastKind = "success" | "error" | "info";

export interface Toast {
  id: number;
  kind: ToastKind;
  text: string;
}

/** How long a message stays, in ms: errors longer, they may need reading twice. */
export const TOAST_MS: Record<ToastKind, number> = { success: 4000, info: 4000, error: 8000 };
const MAX_SHOWN = 3;

let shown: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

export function dismissToast(id: number): void {
  const before = shown.length;
  shown = shown.filter((t) => t.id !== id);
  if (shown.length !== before) emit();
}

/** Shows a message; the same text already shown is not shown twice (one error says one thing once). */
export function toast(kind: ToastKind, text: string): void {
  if (shown.some((t) => t.kind === kind && t.text === text)) return;
  const entry = { id: nextId++, kind, text };
  shown = [...shown, entry].slice(-MAX_SHOWN);
  emit();
  setTimeout(() => dismissToast(entry.id), TOAST_MS[kind]);
}

export function subscribeToasts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function currentToasts(): Toast[] {
  return shown;
}
