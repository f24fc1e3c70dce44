import { describe, expect, it } from "vitest";
import { formatConfigValue, parseConfigValue, previewConfigValue } from "./config-json";

describe("config JSON editor", () => {
  it("accepts any JSON value and refuses the rest", () => {
    expect(parseConfigValue('{"a": [1, true, null]}')).toEqual({ ok: true, value: { a: [1, true, null] } });
    expect(parseConfigValue("null")).toEqual({ ok: true, value: null });
    expect(parseConfigValue('"texte"')).toEqual({ ok: true, value: "texte" });
    expect(parseConfigValue("texte")).toEqual({ ok: false, error: "invalid" });
    expect(parseConfigValue("{a: 1}")).toEqual({ ok: false, error: "invalid" });
    expect(parseConfigValue(JSON.stringify("é".repeat(9000)))).toEqual({ ok: false, error: "tooLarge" });
  });

  it("formats for the editor and previews for the table", () => {
    expect(formatConfigValue({ a: 1 })).toBe('{\n  "a": 1\n}');
    expect(previewConfigValue("x".repeat(100), 10)).toBe('"xxxxxxxx…');
  });
});
