import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "./helpers/build";

/** Every answer carries the security headers, the router's own errors included (issue 25). */
describe("security headers on every response", () => {
  let t: TestContext;
  beforeAll(async () => {
    // the first request is a router error: answered before the settings (hence the CDN origin) are read
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const cases: {
    name: string;
    method: "GET" | "POST" | "PUT" | "DELETE" | "PATCH";
    url: string;
    headers?: Record<string, string>;
    payload?: string;
    status: number;
  }[] = [
    {
      name: "a path parameter too long",
      method: "GET",
      url: `/api/v1/courses/${"a".repeat(300)}`,
      status: 400,
    },
    { name: "a malformed URL", method: "GET", url: "/api/v1/courses/%E0%A4%A", status: 400 },
    { name: "an unknown API route", method: "GET", url: "/api/v1/nothing-here", status: 404 },
    { name: "an unknown method", method: "PATCH", url: "/api/health", status: 404 },
    {
      name: "an unsupported media type",
      method: "POST",
      url: "/api/v1/user/authenticate",
      headers: { "content-type": "application/x-unknown" },
      payload: "x",
      status: 415,
    },
    {
      name: "a body too large",
      method: "POST",
      url: "/api/v1/user/authenticate",
      headers: { "content-type": "application/json" },
      payload: `{"username":"${"a".repeat(2 * 1024 * 1024)}"}`,
      status: 413,
    },
    {
      name: "a body that is not JSON",
      method: "POST",
      url: "/api/v1/user/authenticate",
      headers: { "content-type": "application/json" },
      payload: "{",
      status: 400,
    },
  ];

  for (const c of cases) {
    it(`${c.name} → ${c.status} with the headers`, async () => {
      const res = await t.request({ method: c.method, url: c.url, headers: c.headers, payload: c.payload });
      expect(res.statusCode).toBe(c.status);
      expect(res.headers["content-security-policy"]).toContain("default-src 'self'");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["x-frame-options"]).toBe("SAMEORIGIN");
      expect(res.headers["strict-transport-security"]).toBeDefined();
    });
  }
});
