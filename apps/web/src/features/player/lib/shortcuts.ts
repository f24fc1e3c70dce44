export type PlayerAction =
  | { type: "toggle" }
  | { type: "seekBy"; seconds: number }
  | { type: "speed"; direction: -1 | 1 }
  | { type: "mute" }
  | { type: "seekPercent"; percent: number }
  | { type: "help" };

export interface KeyInput {
  key: string;
  code?: string;
  shiftKey?: boolean;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
}

/**
 * Keyboard shortcuts of the player (YouTube's, which learners know): Space/K play-pause,
 * J/L ∓10 s, ←/→ ∓5 s, Shift+< / Shift+> speed, M mute, 0–9 seek to 0–90 %, ? help.
 * `<` and `>` match whatever key produces them (Shift+, / Shift+. on QWERTY, the `<` key on AZERTY).
 */
export function actionForKey(event: KeyInput): PlayerAction | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  const { key } = event;
  if (key === " " || key === "Spacebar" || key.toLowerCase() === "k") return { type: "toggle" };
  if (key.toLowerCase() === "j") return { type: "seekBy", seconds: -10 };
  if (key.toLowerCase() === "l") return { type: "seekBy", seconds: 10 };
  if (key === "ArrowLeft") return { type: "seekBy", seconds: -5 };
  if (key === "ArrowRight") return { type: "seekBy", seconds: 5 };
  if (key === "<" || (event.shiftKey && event.code === "Comma")) return { type: "speed", direction: -1 };
  if (key === ">" || (event.shiftKey && event.code === "Period")) return { type: "speed", direction: 1 };
  if (key.toLowerCase() === "m") return { type: "mute" };
  if (key === "?") return { type: "help" };
  if (/^[0-9]$/.test(key)) return { type: "seekPercent", percent: Number(key) * 10 };
  const digit = /^(?:Digit|Numpad)([0-9])$/.exec(event.code ?? "");
  if (digit && !event.shiftKey) return { type: "seekPercent", percent: Number(digit[1]) * 10 };
  return null;
}

interface TargetLike {
  tagName?: string;
  isContentEditable?: boolean;
  getAttribute?: (name: string) => string | null;
  closest?: (selector: string) => unknown;
  type?: string;
}

const TEXT_INPUT_TYPES = new Set([
  "text",
  "search",
  "email",
  "password",
  "url",
  "tel",
  "number",
  "date",
  "datetime-local",
  "month",
  "time",
  "week",
]);

/** True when the key goes to a field the user types in: shortcuts stay off there. */
export function isTypingTarget(target: TargetLike | null | undefined): boolean {
  if (!target) return false;
  const tag = target.tagName?.toLowerCase();
  if (tag === "textarea" || tag === "select") return true;
  if (tag === "input") return TEXT_INPUT_TYPES.has((target.type ?? "text").toLowerCase());
  if (target.isContentEditable) return true;
  const role = target.getAttribute?.("role");
  if (role === "textbox" || role === "combobox" || role === "searchbox") return true;
  return Boolean(target.closest?.("[contenteditable=''],[contenteditable='true']"));
}

/** Keys that a focused control handles itself (a slider's arrows, a button's Space). */
export function isOwnedByControl(target: TargetLike | null | undefined, action: PlayerAction): boolean {
  if (!target) return false;
  const role = target.getAttribute?.("role");
  const tag = target.tagName?.toLowerCase();
  if (action.type === "seekBy" && Math.abs(action.seconds) === 5) {
    return role === "slider" || (tag === "input" && target.type === "range");
  }
  return false;
}
