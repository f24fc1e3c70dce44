import {
  ALL_PERMISSIONS,
  ERROR_CODES,
  LOCALES,
  type PasswordError,
  TRANSACTIONAL_SLUGS,
} from "@parlons/contract";
import { describe, expect, it } from "vitest";
import { permissionKey } from "@/features/users/lib/users-helpers";
import type { Texts } from "@/lib/i18n";

/** Every language folder's catalogue, as the app loads it (`<code>/index.ts`). */
const folders = import.meta.glob<Texts>("./*/index.ts", { eager: true, import: "default" });
const resources: Record<string, Texts> = Object.fromEntries(
  Object.entries(folders).map(([file, texts]) => [file.split("/")[1], texts]),
);
const fr = resources.fr ?? {};
const en = resources.en ?? {};

function keys(value: unknown, prefix = ""): string[] {
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
  }
  return [prefix];
}

function get(value: unknown, path: string): unknown {
  return path
    .split(".")
    .reduce<unknown>((node, k) => (node as Record<string, unknown> | undefined)?.[k], value);
}

/** The placeholders a text fills in (`{{name}}`, `{{count}}`, nested `$t(…)`), sorted. */
function placeholders(text: unknown): string[] {
  const found = String(text).match(/\{\{\s*[\w.]+|\$t\([^)]*\)/g) ?? [];
  return [...new Set(found.map((p) => p.replace(/\s/g, "")))].sort();
}

const LANGS = Object.keys(resources);

describe("locales", () => {
  it("the language folders are the contract's list of languages", () => {
    expect(LANGS.sort()).toEqual([...LOCALES].sort());
  });

  it("every language has the same namespaces and keys as French", () => {
    for (const lang of LANGS) {
      expect(Object.keys(resources[lang] ?? {}).sort(), lang).toEqual(Object.keys(fr).sort());
      expect(keys(resources[lang]).sort(), lang).toEqual(keys(fr).sort());
    }
  });

  it("every text has the same placeholders in every language", () => {
    const problems: string[] = [];
    for (const lang of LANGS) {
      for (const key of keys(fr)) {
        const want = placeholders(get(fr, key));
        const got = placeholders(get(resources[lang], key));
        if (want.join() !== got.join())
          problems.push(`${lang}:${key} has ${got.join() || "none"}, fr has ${want.join() || "none"}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("no text is empty", () => {
    for (const lang of LANGS) {
      for (const key of keys(resources[lang])) {
        expect(get(resources[lang], key), `${lang}:${key}`).toMatch(/\S/);
      }
    }
  });

  it("every API error code is translated", () => {
    for (const code of ERROR_CODES) {
      for (const lang of LANGS) expect(resources[lang]?.errors, lang).toHaveProperty(code);
    }
  });

  it("names every permission, built-in role and mail Parlons sends (seeded data read in every language)", () => {
    for (const lang of LANGS) {
      const users = get(resources[lang], "users") as {
        permissions: Record<string, string>;
        roles: { builtInDescriptions: Record<string, string> };
      };
      for (const slug of ALL_PERMISSIONS)
        expect(users.permissions, `${lang} ${slug}`).toHaveProperty(permissionKey(slug));
      expect(Object.keys(users.roles.builtInDescriptions).sort()).toEqual(["ADMIN", "CUSTOMER"]);
      const names = (get(resources[lang], "mail") as { templates: { builtInNames: Record<string, string> } })
        .templates.builtInNames;
      for (const slug of TRANSACTIONAL_SLUGS) expect(names, `${lang} ${slug}`).toHaveProperty(slug);
    }
  });

  it("uses the spec's texts", () => {
    const codes: PasswordError[] = ["password.required", "password.min", "password.special"];
    expect(codes.map((c) => get(en.auth, c))).toEqual([
      "Cannot be empty",
      "At least 8 Characters long",
      "Should atleast have a special character",
    ]);
    expect(get(en, "auth.signup.success")).toBe("Registered Succesfully");
    expect(get(fr, "auth.signup.successTitle")).toBe("Abonnement enregistré");
    // the spec's French title stays French; in English it is English (no mixed languages, issue 14)
    expect(get(en, "auth.signup.successTitle")).toBe("Registration complete");
    expect(get(en, "auth.logout.confirm")).toBe("Are you sure you want to log out?");
    expect(get(en, "common.notFound.title")).toBe("This page could not be found");
    expect(get(fr, "common.notFound.title")).toBe("Cette page est introuvable");
    expect(get(en, "app.plan.discovery")).toBe("Discovery");
    expect(get(fr, "app.plan.discovery")).toBe("Découverte");
    expect(get(en, "common.confirm")).toEqual({ title: "Confirm", areYouSure: "Are you sure?" });
    expect(get(en, "common.titleTemplate")).toBe("{{title}} · Parlons");
  });
});
