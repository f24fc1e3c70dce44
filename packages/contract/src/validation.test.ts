import { describe, expect, it } from "vitest";
import {
  checkPassword,
  genderLabel,
  isEmail,
  isLocalPath,
  isUrl,
  passwordMessages,
  safeRedirect,
  slugify,
} from "./validation";

describe("password rules (spec §5)", () => {
  it.each([
    ["", "password.required"],
    [undefined, "password.required"],
    ["short!", "password.min"],
    ["1234567", "password.min"],
    ["longenough", "password.special"],
    ["longenough1", "password.special"],
    ["long enough", "password.special"],
    ["longenough!", null],
    ["abcdefg#", null],
    ["été-2024x", null],
  ])("%j → %s", (password, expected) => {
    expect(checkPassword(password)).toBe(expected);
  });

  it("keeps the spec's English messages", () => {
    expect(passwordMessages["password.required"]).toBe("Cannot be empty");
    expect(passwordMessages["password.min"]).toBe("At least 8 Characters long");
    expect(passwordMessages["password.special"]).toBe("Should atleast have a special character");
  });
});

describe("isEmail", () => {
  it.each(["ana@example.com", "a.b+tag@sub.example.fr", "x@y.co"])("accepts %s", (e) =>
    expect(isEmail(e)).toBe(true),
  );
  it.each([
    "",
    "ana",
    "ana@",
    "@example.com",
    "ana@example",
    "a b@example.com",
    "ana@exa_mple.com",
    `${"a".repeat(250)}@b.co`,
  ])("rejects %j", (e) => expect(isEmail(e)).toBe(false));
});

describe("slugify", () => {
  it("lowercases, strips accents and turns spaces into hyphens", () => {
    expect(slugify("Anglais pour Débutants")).toBe("anglais-pour-debutants");
    expect(slugify("  Ça   va très bien ! ")).toBe("ca-va-tres-bien");
  });
  it("strips Vietnamese accents, đ included", () => {
    expect(slugify("Tiếng Việt cho người mới bắt đầu")).toBe("tieng-viet-cho-nguoi-moi-bat-dau");
    expect(slugify("Đà Nẵng")).toBe("da-nang");
  });
});

describe("isUrl", () => {
  it.each([
    "https://example.com",
    "http://example.com:8080/path/to?q=1&r=2#top",
    "example.com",
    "www.example.co.uk/page",
    "192.168.1.10:3000/x",
    "localhost:5173",
  ])("accepts %s", (u) => expect(isUrl(u)).toBe(true));
  it.each([
    "",
    "ftp://example.com",
    "javascript:alert(1)",
    "http://",
    "not a url",
    "http://999.1.1.1",
    "example.com:99999",
  ])("rejects %j", (u) => expect(isUrl(u)).toBe(false));
});

describe("genderLabel", () => {
  it("maps m, f and anything else", () => {
    expect(genderLabel("m")).toBe("Male");
    expect(genderLabel("f")).toBe("Female");
    expect(genderLabel("x")).toBe("Other");
    expect(genderLabel(null)).toBe("Other");
  });
});

describe("local redirects", () => {
  it.each(["/dashboard", "/en/courses/1?x=2#y", "/"])("accepts %s", (p) => expect(isLocalPath(p)).toBe(true));
  it.each([
    "https://evil.com",
    "//evil.com",
    "/\\evil.com",
    "javascript:alert(1)",
    "dashboard",
    "",
    "/a\nb",
    "/a\\b",
  ])("rejects %j", (p) => expect(isLocalPath(p)).toBe(false));
  it("falls back when the target is not local", () => {
    expect(safeRedirect("//evil.com")).toBe("/dashboard");
    expect(safeRedirect("/profile")).toBe("/profile");
    expect(safeRedirect(undefined, "/en/dashboard")).toBe("/en/dashboard");
  });
});
