import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Page } from "@playwright/test";

/** axe-core's minified script (650 KB, where the package's `source` is the 1.5 MB readable one). */
const axeSource = readFileSync(fileURLToPath(import.meta.resolve("axe-core/axe.min.js")), "utf8");
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

interface AxeViolation {
  id: string;
  help: string;
  impact?: string | null;
  nodes: { target: unknown[] }[];
}

/**
 * Serious and critical WCAG 2.2 A/AA violations on the page as it is now.
 *
 * axe-core is evaluated in the page once per document (through the driver, so the page's CSP does
 * not apply) and asked for violations only: a run then takes a tenth of a second where
 * `@axe-core/playwright`'s analyze (injected again at each call, every pass and incomplete node
 * serialised back) took seconds, which is what makes checking every page at every size affordable.
 */
export async function violations(page: Page): Promise<string[]> {
  // Colours measured in the middle of a transition (a drawer sliding in, a selected menu item's
  // background fading in) fail colour contrast by chance: wait for finite animations to end.
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every((a) => a.playState !== "running" || a.effect?.getTiming().iterations === Infinity),
      undefined,
      { timeout: 3000 },
    )
    .catch(() => undefined);
  const loaded = await page.evaluate(() => "axe" in window);
  if (!loaded) await page.evaluate(axeSource);
  const found = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<unknown> } })
      .axe;
    const result = (await axe.run(document, {
      runOnly: { type: "tag", values: tags },
      resultTypes: ["violations"],
    })) as { violations: unknown[] };
    return result.violations;
  }, TAGS);
  return (found as AxeViolation[])
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.id}: ${v.help} (${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 3)
          .join(", ")})`,
    );
}
