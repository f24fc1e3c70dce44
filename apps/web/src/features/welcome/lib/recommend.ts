import { CEFR_LEVELS, type CourseItem, type LearnerLevel } from "@parlons/contract";

/** The languages the catalogue teaches, in the order of their first course. */
export function catalogueLanguages(courses: Pick<CourseItem, "target_language">[]): string[] {
  return [...new Set(courses.map((c) => c.target_language))];
}

/**
 * The course to start with: of the language learned, the level nearest the learner's ("starting"
 * is A1), a lower level before a higher one at the same distance, then popular ones, then the
 * catalogue's order. Null when the catalogue has no course of that language.
 */
export function recommendCourse<
  C extends Pick<CourseItem, "target_language" | "level" | "popular" | "position">,
>(courses: C[], language: string, level: LearnerLevel): C | null {
  const wanted = level === "starting" ? 0 : CEFR_LEVELS.indexOf(level);
  const distance = (c: C) => {
    const d = CEFR_LEVELS.indexOf(c.level) - wanted;
    // a level above costs a half step more than the same distance below
    return d > 0 ? d + 0.5 : -d;
  };
  const ranked = courses
    .filter((c) => c.target_language === language)
    .sort(
      (a, b) => distance(a) - distance(b) || Number(b.popular) - Number(a.popular) || a.position - b.position,
    );
  return ranked[0] ?? null;
}
