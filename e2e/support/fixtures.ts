import { test as base, expect, type Response } from "@playwright/test";

/**
 * `page` whose goto waits for the app to be ready, and that fails the test on uncaught exceptions and console errors (CSP violations,
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
    // A server-rendered page shows its buttons before the app answers them: every navigation to
    // an HTML page waits until the app has hydrated or rendered it (<html data-app-ready>).
    const ready = async (response: Response | null) => {
      if (/text\/html/.test(response?.headers()["content-type"] ?? ""))
        await page.locator("html[data-app-ready]").waitFor({ state: "attached", timeout: 15_000 });
      return response;
    };
    const goto = page.goto.bind(page);
    const reload = page.reload.bind(page);
    page.goto = async (url, options) => ready(await goto(url, options));
    page.reload = async (options) => ready(await reload(options));
    await use(page);
    expect(problems, "errors in the browser console").toEqual([]);
  },
});

export { expect };
