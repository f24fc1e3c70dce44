import { store, stored } from "@/lib/storage";

/**
 * The course whose offer a visitor chose before signing up (spec §3's stored course): the sign-up
 * sends it as `course_id`, so the account remembers which course brought the learner.
 */
export function chooseSignupCourse(courseId: string | null): void {
  store("course", courseId);
}

export function signupCourse(): string | null {
  const id = stored<unknown>("course");
  return typeof id === "string" && /^[0-9a-f-]{36}$/i.test(id) ? id : null;
}
