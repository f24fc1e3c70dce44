import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { architecturePath, architectureText, moduleEdges } from "../scripts/architecture";
import { appModules } from "../src/app";
import type { ChangeBus, ChangeTopic } from "../src/lib/change-bus";
import { buildModules, buildOrder, defineModule, type ModuleContext } from "../src/lib/module";

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

  it("announce only the changes they declare", async () => {
    const told: ChangeTopic[] = [];
    const changes = { publish: (...topics: ChangeTopic[]) => told.push(...topics) } as unknown as ChangeBus;
    const ctx = { changes } as unknown as ModuleContext;
    const writer = defineModule({
      name: "writer",
      needs: [],
      provides: [],
      announces: ["user"],
      build: (own) => {
        own.changes.publish("user:1");
        expect(() => own.changes.publish("courses")).toThrow(
          /writer announces courses changes without declaring/,
        );
        return {};
      },
    });
    await buildModules([writer], ctx);
    expect(told).toEqual(["user:1"]);
  });
});
