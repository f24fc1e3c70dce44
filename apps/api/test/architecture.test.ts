import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { architecturePath, architectureText, moduleEdges } from "../scripts/architecture";
import { appModules } from "../src/app";
import { buildOrder, defineModule } from "../src/lib/module";

describe("the modules' declarations", () => {
  it("are drawn in docs/architecture.md (run `npm run docs:architecture` after changing one)", () => {
    expect(
      architectureText(appModules) === readFileSync(architecturePath, "utf8"),
      "docs/architecture.md is stale",
    ).toBe(true);
  });

  it("name only services some module provides, each provided once", () => {
    expect(() => buildOrder(appModules)).not.toThrow();
    for (const e of moduleEdges(appModules))
      expect(e.needs.concat(e.routesRead).filter((n) => n.startsWith("?"))).toEqual([]);
  });

  it("refuse a circle and a service nobody provides", () => {
    const a = defineModule({ name: "a", needs: ["users"], provides: ["audit"] });
    const b = defineModule({ name: "b", needs: ["audit"], provides: ["users"] });
    expect(() => buildOrder([a, b])).toThrow(/circle: a → b → a/);
    expect(() => buildOrder([a])).toThrow(/needs users, which no module provides/);
  });
});
