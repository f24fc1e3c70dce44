import { PERMISSIONS } from "@parlons/contract";
import type { Access } from "../entitlement/policy";
import type { Principal } from "../users/service";

/** Who is looking at lessons, and what their plan opens. */
export interface LessonViewer {
  userId: string | null;
  /** Staff who manage lessons see inactive ones and the stored audio path. */
  staff: boolean;
  access: Access;
}

export function isLessonStaff(principal: Principal | null): boolean {
  return Boolean(principal?.permissions.has(PERMISSIONS.lessonsManage));
}
