import type { MenuModule } from "@parlons/contract";
import { describe, expect, it } from "vitest";
import { buildMenu, iconFor, parentKeys, selectedMenuKey } from "./menu";

const mod = (
  title: string,
  path: string,
  subModules: MenuModule[] = [],
  extra: Partial<MenuModule> = {},
): MenuModule => ({
  title,
  title_fr: `${title} (fr)`,
  title_es: "",
  path,
  icon: null,
  external: false,
  subModules,
  ...extra,
});

const tree: MenuModule[] = [
  mod("Dashboard", "/dashboard", [], { icon: "DashboardOutlined", title_es: "Panel" }),
  mod("Users", "/User", [
    mod("Customers", "/User/customers"),
    mod("Roles", "/User/roles", [mod("Deep", "/User/roles/deep", [mod("Too deep", "/User/roles/deep/x")])]),
  ]),
  mod("Docs", "https://docs.example", [], { external: true, icon: "book" }),
];

describe("menu tree", () => {
  it("maps modules to menu items in the UI language, three levels at most", () => {
    const fr = buildMenu(tree, "fr");
    expect(fr.items.map((i) => (i as { label: string }).label)).toEqual([
      "Dashboard (fr)",
      "Users (fr)",
      "Docs (fr)",
    ]);
    const en = buildMenu(tree, "en");
    const users = en.items[1] as {
      label: string;
      children: { key: string; label: string; children?: unknown[] }[];
    };
    expect(users.label).toBe("Users");
    expect(users.children.map((c) => c.label)).toEqual(["Customers", "Roles"]);
    const roles = users.children[1];
    const deep = (roles?.children ?? []) as { key: string; children?: unknown }[];
    expect(deep).toHaveLength(1);
    expect(deep[0]?.children).toBeUndefined();
    expect(en.byKey.get(deep[0]?.key ?? "")?.path).toBe("/User/roles/deep");
    expect((en.items[0] as { children?: unknown }).children).toBeUndefined();
    // Spanish: the Spanish title, else the English one (fallback rule)
    const es = buildMenu(tree, "es");
    expect(es.items.map((i) => (i as { label: string }).label)).toEqual(["Panel", "Users", "Docs"]);
  });

  it("maps icon names, known or not", () => {
    expect(iconFor("DashboardOutlined")).toBeDefined();
    expect(iconFor("dashboard")).toBe(iconFor("DashboardOutlined"));
    expect(iconFor("credit-card")).toBeDefined();
    // names used by the API seed
    for (const name of [
      "api",
      "book",
      "control",
      "dashboard",
      "file-text",
      "mail",
      "plus",
      "safety",
      "send",
    ]) {
      expect(iconFor(name), name).toBeDefined();
    }
    for (const name of ["setting", "tag", "team", "user", "user-add", "wallet"]) {
      expect(iconFor(name), name).toBeDefined();
    }
    expect(iconFor("no-such-icon")).toBeUndefined();
    expect(iconFor(null)).toBeUndefined();
    const menu = buildMenu(tree, "en");
    expect((menu.items[0] as { icon?: unknown }).icon).toBeTruthy();
    expect((menu.items[1] as { icon?: unknown }).icon).toBeUndefined();
  });

  it("selects the deepest matching internal module and opens its parents", () => {
    const menu = buildMenu(tree, "en");
    const key = selectedMenuKey(menu, "/User/roles");
    expect(menu.byKey.get(key ?? "")?.title).toBe("Roles");
    expect(parentKeys(key ?? "")).toEqual(["m1"]);
    expect(menu.byKey.get(selectedMenuKey(menu, "/User/customers/12") ?? "")?.title).toBe("Customers");
    expect(selectedMenuKey(menu, "/nowhere")).toBeUndefined();
    expect(parentKeys("m1.1.0")).toEqual(["m1", "m1.1"]);
  });
});
