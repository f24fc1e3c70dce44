import { describe, expect, it } from "vitest";
import { afterLoginPath, loginPathFor } from "./redirect";

describe("after-login redirect", () => {
  it("restores a remembered local path", () => {
    expect(afterLoginPath("/profile", "fr")).toBe("/profile");
    expect(afterLoginPath("/en/courses/3?x=1", "en")).toBe("/en/courses/3?x=1");
  });

  it("never leaves the site and never loops to login", () => {
    for (const bad of [
      "https://evil.example",
      "//evil.example",
      "/\\evil.example",
      "javascript:alert(1)",
      "",
      null,
    ]) {
      expect(afterLoginPath(bad, "fr")).toBe("/dashboard");
      expect(afterLoginPath(bad, "en")).toBe("/en/dashboard");
    }
    expect(afterLoginPath("/auth/login", "fr")).toBe("/dashboard");
    expect(afterLoginPath("/en/login?token=x", "en")).toBe("/en/dashboard");
    expect(afterLoginPath("/logout", "fr")).toBe("/dashboard");
    expect(afterLoginPath("/loginhelp", "fr")).toBe("/loginhelp");
  });

  it("builds the login URL that remembers the page", () => {
    expect(loginPathFor("/profile", "fr")).toBe("/auth/login?redirect=%2Fprofile");
    expect(loginPathFor("/en/User/roles?p=2", "en")).toBe(
      "/en/auth/login?redirect=%2Fen%2FUser%2Froles%3Fp%3D2",
    );
    expect(loginPathFor("/auth/login", "en")).toBe("/en/auth/login");
  });
});
