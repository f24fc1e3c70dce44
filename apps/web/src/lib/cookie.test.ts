import { describe, expect, it } from "vitest";
import { LANG_COOKIE, langCookie, readCookie } from "./cookie";

describe("language cookie", () => {
  it("lasts 365 days on the whole site, SameSite=Lax", () => {
    const now = new Date("2025-01-01T00:00:00Z");
    const cookie = langCookie("en", now);
    expect(cookie.startsWith(`${LANG_COOKIE}=en;`)).toBe(true);
    expect(cookie).toContain("Max-Age=31536000");
    expect(cookie).toContain("Expires=Thu, 01 Jan 2026 00:00:00 GMT");
    expect(cookie).toContain("Path=/");
    expect(cookie).toContain("SameSite=Lax");
    expect(LANG_COOKIE).toBe("i18n_redirected");
  });

  it("reads one cookie among others", () => {
    expect(readCookie("a=1; i18n_redirected=en; b=2", "i18n_redirected")).toBe("en");
    expect(readCookie("xi18n_redirected=en", "i18n_redirected")).toBeNull();
    expect(readCookie("", "i18n_redirected")).toBeNull();
    expect(readCookie("name=caf%C3%A9", "name")).toBe("café");
    expect(readCookie("bad=%E0%A4%A", "bad")).toBe("%E0%A4%A");
  });
});
