import { describe, expect, it } from "vitest";
import { buildUrl, refreshDelayMs } from "./api";
import { isChunkLoadError } from "./chunk-reload";

describe("api client helpers", () => {
  it("prefixes /api and encodes the query", () => {
    expect(buildUrl("/v1/auth/forgot-password", { email: "a+b@x.fr" })).toBe(
      "/api/v1/auth/forgot-password?email=a%2Bb%40x.fr",
    );
    expect(buildUrl("v1/user/me")).toBe("/api/v1/user/me");
    expect(buildUrl("/v1/x", { a: undefined, b: null, c: 0 })).toBe("/api/v1/x?c=0");
  });

  it("refreshes shortly before the access token expires", () => {
    expect(refreshDelayMs(900)).toBe(840_000);
    expect(refreshDelayMs(60)).toBe(48_000);
    expect(refreshDelayMs(2)).toBe(5_000);
  });

  it("recognises a failed route chunk", () => {
    expect(isChunkLoadError(new TypeError("Failed to fetch dynamically imported module: /assets/x.js"))).toBe(
      true,
    );
    expect(isChunkLoadError(new TypeError("Importing a module script failed."))).toBe(true);
    expect(isChunkLoadError(new Error("Cannot read properties of undefined"))).toBe(false);
  });
});
