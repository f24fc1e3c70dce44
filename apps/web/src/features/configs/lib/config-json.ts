import { jsonByteLength, MAX_CONFIG_VALUE_BYTES } from "@parlons/contract";

export type JsonCheck = { ok: true; value: unknown } | { ok: false; error: "invalid" | "tooLarge" };

/** Parses the JSON editor's text: any JSON value of 16 KB at most. */
export function parseConfigValue(text: string): JsonCheck {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: "invalid" };
  }
  if (jsonByteLength(value) > MAX_CONFIG_VALUE_BYTES) return { ok: false, error: "tooLarge" };
  return { ok: true, value };
}

/** A value as the editor shows it: indented JSON. */
export function formatConfigValue(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? "null";
}

/** One line for the table, cut at `max` characters. */
export function previewConfigValue(value: unknown, max = 80): string {
  const text = JSON.stringify(value) ?? "null";
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
