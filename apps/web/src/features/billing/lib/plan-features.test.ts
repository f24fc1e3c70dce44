import { describe, expect, it } from "vitest";
import { extraFeatures, freePlanOf } from "./plan-features";
import { plan } from "./plan-fixture";

describe("features staff wrote", () => {
  it("leaves out what is already said, whatever its case, accents and quotes", () => {
    const taken = ["Toutes les leçons de tous les cours", "Mode « répétez après moi »"];
    expect(
      extraFeatures(
        ["toutes les lecons de tous les cours", 'Mode "répétez après moi"', "Résiliable à tout moment"],
        taken,
      ),
    ).toEqual(["Résiliable à tout moment"]);
  });

  it("keeps each once and drops empty lines", () => {
    expect(extraFeatures(["Deux mois offerts", " ", "deux mois offerts !"], [])).toEqual([
      "Deux mois offerts",
    ]);
  });

  it("compares paid plans with the default free plan, else the first free one", () => {
    const free = plan({ id: "free", premium: false, amount: 0 });
    const byDefault = plan({ id: "default", premium: false, amount: 0, is_default: true });
    expect(freePlanOf([plan({}), free, byDefault])?.id).toBe("default");
    expect(freePlanOf([plan({}), free])?.id).toBe("free");
    expect(freePlanOf([plan({})])).toBeUndefined();
  });
});
