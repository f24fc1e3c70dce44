import { ERROR_CODES, type PasswordError } from "@parlons/contract";
import { describe, expect, it } from "vitest";
import { resources } from "../lib/i18n";

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

describe("locales", () => {
  it("fr and en have the same namespaces and keys", () => {
    expect(Object.keys(resources.en).sort()).toEqual(Object.keys(resources.fr).sort());
    expect(keys(resources.en).sort()).toEqual(keys(resources.fr).sort());
  });

  it("no text is empty", () => {
    for (const lang of ["fr", "en"] as const) {
      for (const key of keys(resources[lang])) {
        expect(get(resources[lang], key), `${lang}:${key}`).toMatch(/\S/);
      }
    }
  });

  it("every API error code is translated", () => {
    for (const code of ERROR_CODES) {
      expect(resources.fr.errors).toHaveProperty(code);
      expect(resources.en.errors).toHaveProperty(code);
    }
  });

  it("uses the spec's texts", () => {
    const codes: PasswordError[] = ["password.required", "password.min", "password.special"];
    expect(codes.map((c) => get(resources.en.auth, c))).toEqual([
      "Cannot be empty",
      "At least 8 Characters long",
      "Should atleast have a special character",
    ]);
    expect(resources.en.auth.signup.success).toBe("Registered Succesfully");
    expect(resources.fr.auth.signup.successTitle).toBe("Abonnement enregistré");
    expect(resources.en.auth.signup.successTitle).toBe("Abonnement enregistré");
    expect(resources.en.auth.logout.confirm).toBe("Are you sure you want to logout?");
    expect(resources.en.common.notFound.title).toBe("This page could not be found");
    expect(resources.fr.common.notFound.title).toBe("Cette page est introuvable");
    expect(resources.en.app.plan.discovery).toBe("Discovery");
    expect(resources.fr.app.plan.discovery).toBe("Découverte");
    expect(resources.en.common.confirm).toEqual({ title: "Confirm", areYouSure: "Are you sure?" });
    expect(resources.en.common.titleTemplate).toBe("{{title}} · Parlons");
  });
});
