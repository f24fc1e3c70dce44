import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "@playwright/test";
import { expect, test } from "../support/fixtures";

/**
 * A new build deployed while the app is open: the service worker of the new build installs and
 * waits, the page shows "a new version is available", and Reload makes it take over. A new build
 * is the server's own sw.js (apps/web/dist, which `npm start` serves, read from disk at each
 * request) with a few bytes more, as any new build's worker differs from the last; those bytes
 * answer which build it is, so that the test tells which worker controls the page. The file is put
 * back at once. (The browser's request for the worker script is not one Playwright can route.)
 */
test.use({ serviceWorkers: "allow" });

const SW_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../apps/web/dist/sw.js");

/** The build the controlling worker says it is, or null (the deployed build does not answer). */
const controllingBuild = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<string | null>((resolve) => {
        const controller = navigator.serviceWorker.controller;
        if (!controller) return resolve(null);
        const done = (event: MessageEvent) => resolve((event.data as { build?: string }).build ?? null);
        navigator.serviceWorker.addEventListener("message", done, { once: true });
        controller.postMessage({ type: "E2E_BUILD?" });
        setTimeout(() => resolve(null), 1000);
      }),
  );

/** Deploys build `name`, lets the browser check for it (as it does at a navigation), then puts the file back. */
async function deploy(page: Page, name: string): Promise<void> {
  const deployed = readFileSync(SW_FILE, "utf8");
  try {
    writeFileSync(
      SW_FILE,
      `${deployed}
self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "E2E_BUILD?") event.source.postMessage({ build: ${JSON.stringify(name)} });
});
`,
    );
    await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      await registration?.update();
    });
  } finally {
    writeFileSync(SW_FILE, deployed);
  }
}

/** The prompt shows while the old build still controls the page; Reload reloads under `name`. */
async function promptThenReload(page: Page, name: string, before: string | null): Promise<void> {
  const prompt = page.getByTestId("update-prompt");
  await expect(prompt).toContainText("Une nouvelle version de Parlons est disponible.", { timeout: 30_000 });
  expect(await controllingBuild(page)).toBe(before);
  await page.screenshot({ path: test.info().outputPath(`update-prompt-${name}.png`) });
  const reloaded = page.waitForEvent("load");
  await prompt.getByRole("button", { name: "Recharger" }).click();
  await reloaded;
  await expect.poll(() => controllingBuild(page), { timeout: 15_000 }).toBe(name);
  await expect(page.getByTestId("update-prompt")).toHaveCount(0);
}

test("a new build: the worker waits, the prompt shows, Reload applies it (first visit and return)", async ({
  page,
}) => {
  test.setTimeout(120_000);
  // the first visit: the worker installs and takes the page (no prompt: nothing was there before)
  await page.goto("/courses");
  await page.waitForFunction(async () => {
    await navigator.serviceWorker.ready;
    return navigator.serviceWorker.controller !== null;
  });
  await expect(page.getByTestId("update-prompt")).toHaveCount(0);
  expect(await controllingBuild(page)).toBeNull();

  // a build deployed while that first tab is open
  await deploy(page, "second");
  await promptThenReload(page, "second", null);

  // another, while a page the worker controlled from its load is open
  await deploy(page, "third");
  await promptThenReload(page, "third", "second");
});
