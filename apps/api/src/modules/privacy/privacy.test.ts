import { eq, getTableName, isTable } from "drizzle-orm";
import { getTableConfig, type PgTable } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakePaypal } from "../../../test/fakes/paypal-server";
import { PASSWORD, type TestContext } from "../../../test/helpers/build";
import { courseWithLessons } from "../../../test/helpers/learning";
import { type PaypalTestApp, paypalTestApp } from "../../../test/helpers/paypal";
import { tablesTouched } from "../../../test/helpers/tables-touched";
import * as schema from "../../db/schema";
import {
  customerPlans,
  dataRequests,
  notifications,
  payments,
  receipts,
  sessions,
  users,
} from "../../db/schema";

let t: TestContext;
let fake: FakePaypal;
let admin: string;
let planId: string;
let course: Awaited<ReturnType<typeof courseWithLessons>>;
let app: PaypalTestApp;
beforeAll(async () => {
  // a small threshold: an account with a few rows already takes the job path (see "export job")
  app = await paypalTestApp({ env: { EXPORT_SYNC_MAX_ROWS: "3" } });
  ({ t, fake, admin, planId } = app);
  course = await courseWithLessons(t, admin);
});
afterAll(() => app.close());

type Learner = { id: string; email: string; token: string };

/** A learner with an ACTIVE PayPal subscription (the real flow), a payment, progress and a notification. */
async function busyLearner(): Promise<Learner & { subscriptionId: string; customerPlanId: string }> {
  const learner = await t.createUser();
  const started = await t.request({
    method: "POST",
    url: "/api/v1/customer-plan",
    token: learner.token,
    payload: { plan_id: planId },
  });
  const customerPlan = started.json().data.customerPlan;
  fake.approve(customerPlan.paypal_subscription_id);
  const status = await t.request({
    method: "GET",
    url: `/api/v1/customer-plan/update-status/${customerPlan.id}`,
    token: learner.token,
  });
  expect(status.json().data.customerPlan.status).toBe("ACTIVE");
  const paid = await t.database.db.select().from(payments).where(eq(payments.userId, learner.id));
  if (paid.length === 0) {
    await t.database.db.insert(payments).values({
      customerPlanId: customerPlan.id,
      userId: learner.id,
      amount: 999,
      currency: "EUR",
      provider: "paypal",
      providerPaymentId: `PAY-${learner.id}`,
      paidAt: new Date(),
    });
  }
  const done = await t.request({
    method: "POST",
    url: `/api/v1/courses/${course.course.id}/lessons/done-customer`,
    token: learner.token,
    payload: { lesson_id: course.free.id, done: true },
  });
  expect(done.statusCode, done.body).toBe(200);
  await t.database.db.insert(notifications).values({ userId: learner.id, kind: "welcome" });
  return { ...learner, subscriptionId: customerPlan.paypal_subscription_id, customerPlanId: customerPlan.id };
}

const exportOf = (token: string) => t.request({ method: "POST", url: "/api/v1/user/me/data-export", token });

describe("data export", () => {
  it("sends a small account's archive at once, with only the learner's own data", async () => {
    const other = await busyLearner();
    const small = await t.createUser();
    // a small account (a few rows): the archive comes at once
    await t.database.db.insert(notifications).values({ userId: small.id, kind: "welcome" });
    const res = await exportOf(small.token);
    expect(res.statusCode).toBe(200);
    expect(String(res.headers["content-disposition"])).toMatch(/^attachment; filename="parlons-data-/);
    const archive = res.json();
    expect(archive.account).toMatchObject({ id: small.id, email: small.email });
    expect(archive.account).not.toHaveProperty("password_hash");
    expect(archive.notifications).toHaveLength(1);
    const text = res.body;
    expect(text).not.toContain(other.id);
    expect(text).not.toContain(other.email);
    expect(text).not.toMatch(/password|token_hash/i);
  });

  it("makes a large account's archive a job with progress, mailed as a link that only opens that archive", async () => {
    const learner = await busyLearner();
    const other = await busyLearner();
    const res = await exportOf(learner.token);
    expect(res.statusCode).toBe(202);
    const { request } = res.json().data;
    expect(request).toMatchObject({ kind: "export", email: learner.email });
    // the job runs in the background: wait for it
    let mine: { status: string; progress: number }[] = [];
    for (let i = 0; i < 100; i++) {
      const list = await t.request({
        method: "GET",
        url: "/api/v1/user/me/data-requests",
        token: learner.token,
      });
      mine = list.json().data.requests;
      if (mine[0]?.status === "done") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(mine[0]).toMatchObject({ status: "done", progress: 100 });
    const mail = t.mailbox.last(learner.email);
    const link = /\/api\/v1\/data-exports\/([\w-]+)/.exec(mail?.text ?? "");
    expect(link, "the mail carries the download link").not.toBeNull();
    const download = await t.request({ method: "GET", url: `/api/v1/data-exports/${link?.[1]}` });
    expect(download.statusCode).toBe(200);
    const archive = download.json();
    expect(archive.account.id).toBe(learner.id);
    expect(archive.subscriptions).toHaveLength(1);
    expect(archive.payments.length).toBeGreaterThanOrEqual(1);
    expect(archive.lesson_progress).toHaveLength(1);
    const notes = await t.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, learner.id));
    expect(archive.notifications).toHaveLength(notes.length);
    expect(download.body).not.toContain(other.id);
    // another learner cannot read the list of someone else's requests
    const theirs = await t.request({
      method: "GET",
      url: "/api/v1/user/me/data-requests",
      token: other.token,
    });
    expect(theirs.json().data.requests).toEqual([]);
    // a made-up link is a 404
    const wrong = await t.request({ method: "GET", url: "/api/v1/data-exports/not-a-real-token-123" });
    expect(wrong.statusCode).toBe(404);
  });
});

describe("data export mail", () => {
  it("a link mail that cannot be sent leaves the request failed, never 'ready: link mailed'", async () => {
    const learner = await busyLearner();
    const send = t.mailbox.send.bind(t.mailbox);
    t.mailbox.send = async (message) => {
      if (message.to === learner.email) throw new Error("SMTP refused");
      return send(message);
    };
    try {
      expect((await exportOf(learner.token)).statusCode).toBe(202);
      let status = "pending";
      for (let i = 0; i < 100 && (status === "pending" || status === "running"); i++) {
        await new Promise((r) => setTimeout(r, 50));
        const list = await t.request({
          method: "GET",
          url: "/api/v1/user/me/data-requests",
          token: learner.token,
        });
        status = list.json().data.requests[0]?.status;
      }
      expect(status).toBe("failed");
    } finally {
      t.mailbox.send = send;
    }
  });
});

describe("account deletion", () => {
  it("needs the password", async () => {
    const learner = await t.createUser();
    const res = await t.request({
      method: "POST",
      url: "/api/v1/user/me/delete",
      token: learner.token,
      payload: { password: "not-the-password" },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe("WRONG_PASSWORD");
    const [row] = await t.database.db.select().from(users).where(eq(users.id, learner.id));
    expect(row?.email).toBe(learner.email);
  });

  it("cancels at PayPal, ends every session, erases personal data, keeps anonymised payments, leaves others alone", async () => {
    const learner = await busyLearner();
    const secondSession = await t.login(learner.email, PASSWORD);
    const other = await busyLearner();
    const theirNotes = await t.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, other.id));
    const res = await t.request({
      method: "POST",
      url: "/api/v1/user/me/delete",
      token: learner.token,
      payload: { password: PASSWORD },
    });
    expect(res.statusCode, res.body).toBe(200);

    // the provider was told: the subscription is cancelled at PayPal
    expect(fake.subscriptions.get(learner.subscriptionId)?.status).toBe("CANCELLED");
    // every session is over, the tokens are refused, the password no longer signs in
    for (const token of [learner.token, secondSession]) {
      const me = await t.request({ method: "GET", url: "/api/v1/user/me", token });
      expect(me.statusCode).toBe(401);
    }
    const live = await t.database.db.select().from(sessions).where(eq(sessions.userId, learner.id));
    expect(live.every((s) => s.revokedAt !== null)).toBe(true);
    await expect(t.login(learner.email, PASSWORD)).rejects.toThrow();

    // personal data erased
    const [row] = await t.database.db.select().from(users).where(eq(users.id, learner.id));
    expect(row).toMatchObject({ fullName: "", passwordHash: null, status: "DISABLED" });
    expect(row?.email).not.toBe(learner.email);
    expect(row?.email).toMatch(/@deleted\.invalid$/);
    const left = await t.database.db.select().from(notifications).where(eq(notifications.userId, learner.id));
    expect(left).toEqual([]);
    // accounting rows kept, pointing at the anonymous account
    const kept = await t.database.db.select().from(payments).where(eq(payments.userId, learner.id));
    expect(kept.length).toBeGreaterThanOrEqual(1);
    const issued = await t.database.db.select().from(receipts).where(eq(receipts.userId, learner.id));
    expect(issued.map((r) => r.buyerEmail)).not.toContain(learner.email);
    const plans = await t.database.db
      .select()
      .from(customerPlans)
      .where(eq(customerPlans.userId, learner.id));
    expect(plans.map((p) => p.status)).toEqual(["CANCELLED"]);
    // the erasure is on record, without the e-mail
    const requests = await t.database.db
      .select()
      .from(dataRequests)
      .where(eq(dataRequests.userId, learner.id));
    expect(requests.find((r) => r.kind === "erasure")).toMatchObject({ status: "done", email: null });

    // the other learner is untouched
    const theirMe = await t.request({ method: "GET", url: "/api/v1/user/me", token: other.token });
    expect(theirMe.statusCode).toBe(200);
    expect(fake.subscriptions.get(other.subscriptionId)?.status).toBe("ACTIVE");
    const theirs = await t.database.db.select().from(notifications).where(eq(notifications.userId, other.id));
    expect(theirs).toHaveLength(theirNotes.length);
  });
});

describe("staff list of data requests", () => {
  it("lists requests for staff with privacy.manage and runs a pending export", async () => {
    const learner = await t.createUser();
    const [row] = await t.database.db
      .insert(dataRequests)
      .values({ userId: learner.id, email: learner.email, kind: "export" })
      .returning();
    const forbidden = await t.request({ method: "GET", url: "/api/v1/data-requests", token: learner.token });
    expect(forbidden.statusCode).toBe(403);
    const list = await t.request({
      method: "GET",
      url: "/api/v1/data-requests?status=pending",
      token: admin,
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.requests.map((r: { id: string }) => r.id)).toContain(row?.id);
    const processed = await t.request({
      method: "POST",
      url: `/api/v1/data-requests/${row?.id}/process`,
      token: admin,
    });
    expect(processed.statusCode, processed.body).toBe(200);
    expect(processed.json().data.request).toMatchObject({ status: "done", progress: 100 });
    expect(t.mailbox.last(learner.email)?.text).toMatch(/\/api\/v1\/data-exports\//);
    const again = await t.request({
      method: "POST",
      url: `/api/v1/data-requests/${row?.id}/process`,
      token: admin,
    });
    expect(again.statusCode).toBe(409);
  });
});

describe("every table holding a user's id, found in the schema", () => {
  const tables = (Object.values(schema) as unknown[]).filter((value): value is PgTable => isTable(value));
  /** Each column that names a user: a foreign key to users, or a column called user_id. */
  const userColumns = tables.flatMap((table) => {
    const config = getTableConfig(table);
    const columns = new Set(config.columns.filter((c) => c.name === "user_id").map((c) => c.name));
    for (const key of config.foreignKeys) {
      const { columns: from, foreignTable } = key.reference();
      if (getTableName(foreignTable) === "users") for (const c of from) columns.add(c.name);
    }
    return [...columns].map((column) => ({ table: config.name, column }));
  });
  /** Tables whose rows are a user's (their user_id): the export reads them, the erasure clears them. */
  const owning = [...new Set(userColumns.filter((c) => c.column === "user_id").map((c) => c.table))];
  /**
   * Other columns naming a user record which staff member did something: the row is not the
   * learner's, and the account row it points at stays (anonymised), so the reference stays too.
   */
  const actedBy = new Set([
    "certificates.revoked_by",
    "configs.updated_by",
    "mail_campaigns.created_by",
    "media.owner_id",
    "data_requests.processed_by",
    "settings.updated_by",
  ]);
  /** A user's tables the archive leaves out, and why (the erasure still clears them). */
  const notExported = new Map([
    ["one_time_tokens", "hashes of live sign-in, activation and reset links: secrets"],
    ["lesson_progress_requests", "replay keys of progress saves, no content of their own"],
    [
      "recovery_codes",
      "digests of the sign-in recovery codes: secrets (the export says whether an app is on)",
    ],
    ["sign_in_challenges", "hashed tickets of sign-ins waiting for their second factor, 5 minutes each"],
    ["passkey_challenges", "random WebAuthn challenges waiting for their answer, 5 minutes each"],
    ["podcast_feeds", "the hash of the private podcast feed's secret: a secret"],
  ]);

  /** A user's tables the erasure leaves as they are, and why (what stays must name no one: checked below). */
  const keptAsIs = new Map([
    [
      "payments",
      "accounting records (amount, date, provider's reference), kept ten years, now pointing at the anonymous account",
    ],
    [
      "purchases",
      "courses bought once: accounting records like payments (amounts, coupon code, provider's order), no address",
    ],
    [
      "coupon_redemptions",
      "the discount a purchase or a subscription took: part of that accounting record, no address",
    ],
  ]);

  it("every column naming a user is a learner's user_id or a known staff reference", () => {
    expect(owning.length).toBeGreaterThan(20);
    const unknown = userColumns
      .filter((c) => c.column !== "user_id" && !actedBy.has(`${c.table}.${c.column}`))
      .map((c) => `${c.table}.${c.column}`);
    expect(unknown, "a new column naming a user: the learner's (user_id) or a staff reference?").toEqual([]);
  });

  it("the export reads each of them, the erasure deletes or anonymises each, and leaves no address behind", async () => {
    const learner = await busyLearner();
    const privacy = t.app.deps.services.privacy;
    const exported = await tablesTouched(t.database.db, () => privacy.archive(learner.id));
    expect(exported.read).toContain("users");
    const missing = owning.filter((name) => !exported.read.has(name) && !notExported.has(name));
    expect(missing, "tables holding a user's rows that the export does not read").toEqual([]);

    const erased = await tablesTouched(t.database.db, () => privacy.eraseAccount(learner.id, PASSWORD));
    const kept = ["users", ...owning].filter((name) => !erased.changed.has(name) && !keptAsIs.has(name));
    expect(kept, "tables holding a user's rows that the erasure neither deletes from nor updates").toEqual(
      [],
    );
    for (const table of tables.filter((x) => owning.includes(getTableName(x)))) {
      const userId = getTableConfig(table).columns.find((c) => c.name === "user_id");
      if (!userId) continue;
      const left = await t.database.db.select().from(table).where(eq(userId, learner.id));
      expect(JSON.stringify(left), getTableName(table)).not.toContain(learner.email);
    }
  });
});
