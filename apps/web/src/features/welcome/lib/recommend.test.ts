import { describe, expect, it } from "vitest";
import { catalogueLanguages, recommendCourse } from "./recommend";

const course = (
  id: string,
  target_language: string,
  level: "A1" | "A2" | "B1" | "B2" | "C1",
  extra = {},
) => ({
  id,
  target_language,
  level,
  popular: false,
  position: 0,
  ...extra,
});

describe("the welcome's recommendation", () => {
  const catalogue = [
    course("es-b1", "es", "B1"),
    course("en-a2", "en", "A2"),
    course("es-a1", "es", "A1", { position: 2 }),
    course("es-a1-popular", "es", "A1", { popular: true, position: 5 }),
    course("es-c1", "es", "C1"),
  ];

  it("lists the catalogue's languages once each", () => {
    expect(catalogueLanguages(catalogue)).toEqual(["es", "en"]);
  });

  it("starts a beginner at A1, the popular course first", () => {
    expect(recommendCourse(catalogue, "es", "starting")?.id).toBe("es-a1-popular");
    expect(recommendCourse(catalogue, "es", "A1")?.id).toBe("es-a1-popular");
  });

  it("takes the nearest level, the lower one at the same distance", () => {
    expect(recommendCourse(catalogue, "es", "B1")?.id).toBe("es-b1");
    expect(recommendCourse(catalogue, "es", "A2")?.id).toBe("es-a1-popular");
    expect(recommendCourse(catalogue, "es", "B2")?.id).toBe("es-b1");
    expect(recommendCourse(catalogue, "en", "C1")?.id).toBe("en-a2");
  });

  it("is null for a language the catalogue does not teach", () => {
    expect(recommendCourse(catalogue, "de", "A1")).toBeNull();
  });
});
