import { test as base, expect } from "@playwright/test";

/**
 * `page` that fails the test on uncaught exceptions and console errors (CSP violations,
 * React warnings promoted to errors...). Failed HTTP responses are expected in some tests
 * (a wrong password is a 401) and are asserted by the tests themselves, so they are ignored.
 */
export const test = base.extend({
  page: async ({ page }, use) => {
    const problems: string[] = [];
    page.on("pageerror", (err) => problems.push(`uncaught: ${err.message}`));
    page.on("console", (msg) => {
      if (msg.type() !== "error") return;
      const text = msg.text();
      if (text.startsWith("Failed to load resource")) return;
      problems.push(`console: ${text}`);
    });
    await use(page);
    expect(problems, "errors in the browser console").toEqual([]);
  },
});

export { expect };
