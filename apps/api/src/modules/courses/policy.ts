import { PERMISSIONS } from "@parlons/contract";
import type { Principal } from "../users/service";

function isCourseStaff(principal: Principal | null): boolean {
  return Boolean(principal?.permissions.has(PERMISSIONS.coursesManage));
}

/** Inactive courses exist for staff only; everyone else gets a 404. */
export function canSeeCourse(principal: Principal | null, course: { active: boolean }): boolean {
  return (
    course.active ||
    isCourseStaff(principal) ||
    Boolean(principal?.permissions.has(PERMISSIONS.lessonsManage))
  );
}
