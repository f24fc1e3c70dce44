import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { customerPlans, plans, users } from "../../db/schema";

let t: TestContext;
let premiumPlanId: string;
beforeAll(async () => {
  t = await buildTestApp();
  const [plan] = await t.database.db
    .insert(plans)
    .values({ name: "Premium", nameFr: "Premium", amount: 999 })
    .returning();
  premiumPlanId = plan?.id ?? "";
});
afterAll(() => t.close());

async function principal(id: string) {
  const p = await t.app.deps.services.users.loadPrincipal(id);
  if (!p) throw new Error("no principal");
  return p;
}

async function subscribe(
  userId: string,
  status: (typeof customerPlans.$inferInsert)["status"],
  accessUntil?: Date,
) {
  await t.database.db.update(users).set({ planId: premiumPlanId }).where(eq(users.id, userId));
  await t.database.db
    .insert(customerPlans)
    .values({ userId, planId: premiumPlanId, status, provider: "demo", accessUntil });
}

describe("entitlement rule", () => {
  it("anonymous and free-plan learners open free lessons only", async () => {
    const e = t.app.deps.services.entitlement;
    expect(await e.accessOf(null)).toBe("free");
    const learner = await t.createUser();
    expect(await e.accessOf(await principal(learner.id))).toBe("free");
    expect(e.canOpen("free", { free: true, courseId: "c" })).toBe(true);
    expect(e.canOpen("free", { free: false, courseId: "c" })).toBe(false);
    expect(e.canOpen("all", { free: false, courseId: "c" })).toBe(true);
    expect(e.canOpen("courses:c", { free: false, courseId: "c" })).toBe(true);
    expect(e.canOpen("courses:c", { free: false, courseId: "d" })).toBe(false);
  });

  it("staff open everything", async () => {
    const admin = await t.app.deps.services.users.findByEmail("admin@test.local");
    expect(await t.app.deps.services.entitlement.accessOf(await principal(admin?.id ?? ""))).toBe("all");
  });

  it("a premium ACTIVE subscription opens everything; pending, suspended or expired do not", async () => {
    const e = t.app.deps.services.entitlement;
    const active = await t.createUser();
    await subscribe(active.id, "ACTIVE");
    expect(await e.accessOf(await principal(active.id))).toBe("all");
    for (const status of ["APPROVAL_PENDING", "SUSPENDED", "EXPIRED", "CANCELLED"] as const) {
      const u = await t.createUser();
      await subscribe(u.id, status);
      expect(await e.accessOf(await principal(u.id)), status).toBe("free");
    }
  });

  it("a cancelled subscription keeps access until the paid period ends", async () => {
    const e = t.app.deps.services.entitlement;
    const u = await t.createUser();
    await subscribe(u.id, "CANCELLED", new Date(Date.now() + 86_400_000));
    expect(await e.accessOf(await principal(u.id))).toBe("all");
    expect(await e.accessOf(await principal(u.id), new Date(Date.now() + 2 * 86_400_000))).toBe("free");
  });

  it("an ACTIVE row for a plan that is not the user's current plan gives nothing", async () => {
    const e = t.app.deps.services.entitlement;
    const u = await t.createUser();
    await t.database.db
      .insert(customerPlans)
      .values({ userId: u.id, planId: premiumPlanId, status: "ACTIVE", provider: "demo" });
    expect(await e.accessOf(await principal(u.id))).toBe("free");
  });
});
