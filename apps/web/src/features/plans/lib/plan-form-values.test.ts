import type { Plan } from "@parlons/contract";
import { describe, expect, it } from "vitest";
import {
  centsFromDecimal,
  decimalFromCents,
  EMPTY_PLAN,
  linesToList,
  listToLines,
  toFormValues,
  toPlanBody,
} from "./plan-form-values";

describe("amounts", () => {
  it("turns a decimal amount into integer cents", () => {
    expect(centsFromDecimal(9.9)).toBe(990);
    expect(centsFromDecimal(0.1 + 0.2)).toBe(30);
    expect(centsFromDecimal(19.99)).toBe(1999);
    expect(centsFromDecimal("12,50")).toBe(1250);
    expect(centsFromDecimal("1 000.5")).toBe(100050);
    expect(centsFromDecimal(null)).toBe(0);
    expect(centsFromDecimal("abc")).toBe(0);
    expect(centsFromDecimal(-3)).toBe(0);
  });

  it("and back", () => {
    expect(decimalFromCents(990)).toBe(9.9);
    expect(decimalFromCents(0)).toBe(0);
  });
});

describe("feature lists", () => {
  it("one per line, blank lines dropped", () => {
    expect(linesToList(" All lessons \n\n  Offline audio\r\n")).toEqual(["All lessons", "Offline audio"]);
    expect(linesToList("")).toEqual([]);
    expect(listToLines(["a", "b"])).toBe("a\nb");
  });
});

describe("plan body", () => {
  it("maps the form to the API body and back", () => {
    const body = toPlanBody({
      ...EMPTY_PLAN,
      name: " Premium ",
      name_fr: "Premium",
      amount: 9.9,
      currency: "eur",
      features_en: "All lessons\nNew courses",
      name_es: " Prémium ",
      features_es: "Todas las lecciones",
      position: null,
    });
    expect(body).toEqual({
      name: "Premium",
      name_fr: "Premium",
      amount: 990,
      currency: "EUR",
      interval: "month",
      description_en: "",
      description_fr: "",
      features_en: ["All lessons", "New courses"],
      features_fr: [],
      name_es: "Prémium",
      description_es: "",
      features_es: ["Todas las lecciones"],
      active: true,
      position: 0,
      scope: "all",
      course_ids: [],
      trial_days: 0,
    });
    const plan: Plan = {
      ...body,
      id: "p1",
      is_default: false,
      premium: true,
      created_at: "",
      updated_at: "",
    };
    expect(toFormValues(plan)).toMatchObject({
      amount: 9.9,
      features_en: "All lessons\nNew courses",
      name_es: "Prémium",
      features_es: "Todas las lecciones",
    });
  });

  it("sends free days only for a paid plan billed by month or year", () => {
    const paid = { ...EMPTY_PLAN, name: "P", name_fr: "P", amount: 9.9, trial_days: 14 };
    expect(toPlanBody(paid).trial_days).toBe(14);
    expect(toPlanBody({ ...paid, interval: "once" }).trial_days).toBe(0);
    expect(toPlanBody({ ...paid, amount: 0 }).trial_days).toBe(0);
    expect(toPlanBody({ ...paid, trial_days: null }).trial_days).toBe(0);
  });

  it("sends the chosen courses only for a plan of chosen courses", () => {
    const picked = { ...EMPTY_PLAN, name: "A", name_fr: "A", course_ids: ["c1"] };
    expect(toPlanBody({ ...picked, scope: "courses" })).toMatchObject({
      scope: "courses",
      course_ids: ["c1"],
    });
    expect(toPlanBody({ ...picked, scope: "all" })).toMatchObject({ scope: "all", course_ids: [] });
  });
});
