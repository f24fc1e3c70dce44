import { LOCALES, type Speak } from "@parlons/contract";
import type { ReactNode } from "react";
import { ownLanguageName } from "./format";

export interface SpeakOption {
  value: Speak;
  label: ReactNode;
}

/**
 * The choices of a "language I speak" field: every language of `LOCALES`, in its order, each named
 * in its own language ("Français", "English", "Español") and marked with its `lang` so a screen
 * reader pronounces it right. A language added to `LOCALES` shows up here with nothing else to list.
 */
export function speakOptions(locales: readonly string[] = LOCALES): SpeakOption[] {
  return locales.map((code) => ({
    value: toSpeak(code),
    label: <span lang={code}>{ownLanguageName(code)}</span>,
  }));
}

/** The name of a stored `speak` code (`EN`) in that language itself ("English"). */
export function speakName(speak: string): string {
  return ownLanguageName(speak.toLowerCase());
}

/** The `speak` code of a UI language (`en` → `EN`), the default for a new account. */
export function toSpeak(lang: string): Speak {
  return lang.toUpperCase() as Speak;
}
