import { asc, desc, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { roles, userRoles, users } from "../../db/schema";

let t: TestContext;
let admin: string;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.adminToken();
  // 1,100 customers a second apart (some sharing a timestamp: the id breaks the tie)
  await t.database.db.execute(sql`
    insert into users (email, password_hash, full_name, status, created_at, updated_at)
    select 'deep' || n || '@example.com', 'x', 'Deep ' || n, 'ACTIVE',
           timestamptz '2025-01-01 00:00:00.123456+00' + (n / 2) * interval '1 second', now()
    from generate_series(1, 1100) n`);
  await t.database.db.execute(sql`
    insert into user_roles (user_id, role_id, position, user_created_at)
    select u.id, r.id, 0, u.created_at from users u, roles r
    where u.email like 'deep%' and r.title = 'CUSTOMER'`);
});
afterAll(() => t.close());

const page = async (url: string, body: object) =>
  (
    (await t.request({ method: "POST", url, token: admin, payload: body })).json().data.users as {
      id: string;
    }[]
  ).map((u) => u.id);

/** The page as the offset defines it, read from the database. */
async function byOffset(offset: number, role: boolean): Promise<string[]> {
  const { db } = t.database;
  const customers = db
    .select({ id: userRoles.userId })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(eq(roles.title, "CUSTOMER"));
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(role ? inArray(users.id, customers) : undefined)
    .orderBy(desc(users.createdAt), asc(users.id))
    .limit(20)
    .offset(offset);
  return rows.map((r) => r.id);
}

describe("deep pages of the staff user lists", () => {
  it("answer a deep page read again (from its first row) as the offset defines it, and follow a new user", async () => {
    for (const [url, role] of [
      ["/api/v1/users", false],
      ["/api/v1/users/customers", true],
    ] as const) {
      const body = { page: 52, pageSize: 20 };
      const first = await page(url, body);
      expect(first).toHaveLength(20);
      expect(first).toEqual(await byOffset(1020, role));
      // the second read starts from the page's first row: the same page
      expect(await page(url, body)).toEqual(first);
      expect(await page(url, { page: 53, pageSize: 20 })).toEqual(await byOffset(1040, role));
      // a newer user moves every page by one: the kept start is dropped with the write
      await t.createUser({ email: `newest-${role}@example.com` });
      const after = await page(url, body);
      expect(after).toEqual(await byOffset(1020, role));
      expect(after.slice(1)).toEqual(first.slice(0, 19));
    }
  });
});
