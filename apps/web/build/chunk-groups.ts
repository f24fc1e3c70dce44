import path from "node:path";
import type { Rollup } from "vite";

/**
 * Chunks grouped by hand, for the browser build (issue 26). Left alone, Rollup splits the
 * dependencies shared by ~60 lazy routes in every combination they occur in: a signed-in page
 * fetched ~80 files of 0.2–40 KB, one per antd component family, per icon, per rc-* helper.
 *
 * - `vendor`: the npm code the first chunk shares with that group (React, react-dom). The first
 *   chunk needs it anyway; naming it keeps the group below from pulling React into itself (Rollup
 *   moves a manual chunk's unassigned dependencies into it).
 * - `antd-shell`: the npm code antd's root (`components/antd-root.tsx`) imports statically: antd's
 *   core (CSS-in-JS, theme, motion, trigger) and the components of its providers. Every page built
 *   with antd loads all of it already; the signed-in shell, plain markup, does not.
 * - `learner`: the rest of the npm code that two or more of the learner's pages (dashboard,
 *   lessons, review, practice, billing, profile) import statically: antd's components beyond its
 *   root and their icons. What one page alone uses keeps Rollup's split.
 * - `app-shell`: the npm code of the signed-in shell (`app/layouts/app-layout.tsx`) beyond the
 *   entry's: the menu's icons (their drawings), in one file rather than one each.
 *
 * - the npm modules the shell shares with the pages drawn without antd (home, course, legal: the
 *   shapes of a few icons), one chunk each: in the group, they would bring antd to those pages.
 *   (One file for all of them was tried: two requests fewer, but the public course page then
 *   carried the home page's icons, 2 KB over its 150 KB.)
 *
 * The public pages (home, course) keep their weight: the entry's modules are the same, in two
 * files. What a page imports beyond the shell keeps Rollup's own split.
 */
const ANTD_ROOTS = ["/src/components/antd-root.tsx"];
const SHELL_ROOTS = ["/src/app/layouts/app-layout.tsx"];
const ENTRY_ROOT = "/src/main.tsx";
/** Where learners spend their time (issue 26's pages, and what they open from them). */
const LEARNER_ROOTS = [
  "dashboard/pages/dashboard-page.tsx",
  "lessons/pages/lesson-page.tsx",
  "lessons/pages/lessons-page.tsx",
  "review/pages/review-page.tsx",
  "practice/pages/practice-page.tsx",
  "billing/pages/billing-page.tsx",
  "profile/pages/profile-page.tsx",
].map((page) => `/src/features/${page}`);
const PUBLIC_ROOTS = [
  "/src/features/site/pages/home-page.tsx",
  "/src/features/courses/pages/course-page.tsx",
  "/src/features/site/pages/legal-page.tsx",
];
/** Barrels an app module imports by name, resolved to the modules those names come from. */
const BARRELS = [
  { specifier: "antd", resolved: "/antd/es/index.js", names: "/antd/es/index.js" },
  {
    specifier: "@ant-design/icons",
    resolved: "/@ant-design/icons/es/index.js",
    names: "/@ant-design/icons/es/icons/index.js",
  },
];

const isApp = (id: string) => !id.startsWith("\0") && !id.includes("/node_modules/");
/** The shared contract's schemas are not the groups' business (its barrel reaches zod). */
const isContract = (id: string) => id.includes("/packages/contract/");

export function chunkGroups(): Rollup.GetManualChunk {
  let groups: Map<string, string> | null = null;
  return (id, { getModuleInfo, getModuleIds }) => {
    groups ??= computeGroups(getModuleInfo, [...getModuleIds()]);
    return groups.get(id);
  };
}

function computeGroups(info: Rollup.GetModuleInfo, ids: string[]): Map<string, string> {
  const find = (suffix: string) => ids.find((id) => id.endsWith(suffix));
  const exports = new Map<string, Map<string, string>>();
  /** `name` → module id, from a barrel's `export { default as Name } from "./dir"` lines. */
  const barrelExports = (barrel: string): Map<string, string> => {
    const known = exports.get(barrel);
    if (known) return known;
    const map = new Map<string, string>();
    const code = info(barrel)?.code ?? "";
    const dir = path.dirname(barrel);
    for (const m of code.matchAll(/export \{ default as (\w+) \} from ["']\.\/([\w/-]+)["']/g)) {
      const base = path.join(dir, m[2] ?? "");
      const target = find(`${base}/index.js`) ?? find(`${base}.js`);
      if (target) map.set(m[1] ?? "", target);
    }
    exports.set(barrel, map);
    return map;
  };
  /** The static imports of a module, an app module's barrel imports narrowed to the names it takes. */
  const importsOf = (id: string): string[] => {
    const module = info(id);
    if (!module) return [];
    if (!isApp(id)) return [...module.importedIds];
    const out: string[] = [];
    const skipped = new Set<string>();
    for (const { specifier, resolved, names } of BARRELS) {
      const barrel = find(names);
      const entry = find(resolved);
      if (!barrel || !entry) continue;
      skipped.add(entry);
      const from = new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*["']${specifier}["']`, "g");
      for (const m of (module.code ?? "").matchAll(from))
        for (const name of (m[1] ?? "").split(",")) {
          const target = barrelExports(barrel).get(name.trim().split(/\s+as\s+/)[0] ?? "");
          if (target) out.push(target);
        }
    }
    for (const imported of module.importedIds)
      if (!isContract(imported) && !skipped.has(imported)) out.push(imported);
    return out;
  };
  /** The npm (and virtual) modules reachable by static imports from the roots. */
  const npmClosure = (roots: string[]): Set<string> => {
    const seen = new Set<string>(roots);
    const npm = new Set<string>();
    for (const id of seen) {
      if (!isApp(id) && !/\.css($|\?)/.test(id)) npm.add(id);
      for (const next of importsOf(id)) seen.add(next);
    }
    return npm;
  };
  const roots = (suffixes: string[]) => suffixes.map(find).filter((id): id is string => id !== undefined);
  const entry = npmClosure(roots([ENTRY_ROOT]));
  const antd = npmClosure(roots(ANTD_ROOTS));
  const shell = npmClosure(roots(SHELL_ROOTS));
  const publicPages = npmClosure(roots(PUBLIC_ROOTS));
  // what at least two of the learner's pages import (what one page alone uses stays with it)
  const uses = new Map<string, number>();
  for (const root of roots(LEARNER_ROOTS))
    for (const id of npmClosure([root])) uses.set(id, (uses.get(id) ?? 0) + 1);
  const learner = new Set([...uses].filter(([, n]) => n >= 4).map(([id]) => id));
  const groups = new Map<string, string>();
  const group = (ids: Set<string>, name: string) => {
    for (const id of ids) {
      if (entry.has(id) || groups.has(id)) continue;
      // shared with a public page (an icon's shape): a chunk of its own, as Rollup would make it
      if (publicPages.has(id)) groups.set(id, path.basename(id).replace(/\.[^.]*$/, ""));
      else groups.set(id, name);
      // what the group imports from the first chunk (React) is named, not pulled into the group
      for (const imported of info(id)?.importedIds ?? [])
        if (entry.has(imported)) groups.set(imported, "vendor");
    }
  };
  // a module both use (an icon's drawing) goes with the shell, which antd's pages load anyway
  group(shell, "app-shell");
  group(antd, "antd-shell");
  // the rest of the npm code the learner's pages share (antd's components beyond its root, their
  // icons, rc-* helpers): one file instead of ~30 small ones each; a staff page that uses one of
  // them loads it too
  group(learner, "learner");
  return groups;
}
