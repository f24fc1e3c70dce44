import { describe, expect, it } from "vitest";
import { checkCdnBaseUrl, isWebUrl, normalizeBaseUrl, settingUpdateBody } from "./settings";

describe("CDN base URL rule", () => {
  it.each([
    ["https://cdn.example.com", null],
    ["https://cdn.example.com/parlons/", null],
    ["http://localhost:8080", null],
    ["http://127.0.0.1:9000", null],
    ["http://cdn.example.com", "url.https"],
    ["ftp://cdn.example.com", "url.https"],
    ["https://user:pw@cdn.example.com", "url.extra"],
    ["https://cdn.example.com/?a=1", "url.extra"],
    ["https://cdn.example.com/#x", "url.extra"],
    ["http://[::1]:3000/cdn", null],
    ["HTTPS://CDN.example.com:8443/a/b", null],
    ["https://cdn.example.com:99999", "url.invalid"],
    ["https://300.1.1.1", "url.invalid"],
    ["https://cdn .example.com", "url.invalid"],
    ["https://cdn.example.com/a b", "url.invalid"],
    ["cdn.example.com", "url.invalid"],
    ["", "url.invalid"],
    [null, "url.invalid"],
  ])("%s → %s", (value, expected) => {
    expect(checkCdnBaseUrl(value)).toBe(expected);
  });

  it("normalizes away the trailing slash", () => {
    expect(normalizeBaseUrl("https://cdn.example.com/")).toBe("https://cdn.example.com");
    expect(normalizeBaseUrl(" https://CDN.example.com/a/b// ")).toBe("https://cdn.example.com/a/b");
  });
});

describe("support link rule", () => {
  it("accepts only absolute http(s) links", () => {
    expect(isWebUrl("https://help.example.com/faq?x=1")).toBe(true);
    expect(isWebUrl("http://help.example.com")).toBe(true);
    expect(isWebUrl("help.example.com")).toBe(false);
    expect(isWebUrl("javascript:alert(1)")).toBe(false);
    expect(isWebUrl("")).toBe(false);
  });
});

describe("settings update body", () => {
  it("accepts a partial update and refuses unknown fields", () => {
    expect(settingUpdateBody.safeParse({ registrations_open: false }).success).toBe(true);
    expect(settingUpdateBody.safeParse({ secret: "x" }).success).toBe(false);
    expect(settingUpdateBody.safeParse({ contact_email: "not-an-email" }).success).toBe(false);
    expect(
      settingUpdateBody.safeParse({ audio_source: { type: "cdn", base_url: "http://cdn.example.com" } })
        .success,
    ).toBe(false);
  });
});
