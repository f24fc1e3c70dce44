import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { customerPlans, notifications } from "../../db/schema";

let t: TestContext;
let admin: string;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

const missing = "00000000-0000-4000-8000-000000000000";
const list = (token: string | undefined, query = "") =>
  t.request({ method: "GET", url: `/api/v1/notifications${query}`, token });
const post = (url: string, token?: string, payload?: object) =>
  t.request({ method: "POST", url: `/api/v1${url}`, token, ...(payload && { payload }) });
const notify = (userId: string, title: string) =>
  t.app.deps.services.notifications.notify(userId, "event.booked", { event_title_en: title }, "/events");

describe("GET /v1/notifications", () => {
  it("requires authentication", async () => {
    expect((await list(undefined)).statusCode).toBe(401);
    expect((await post("/notifications/read-all")).statusCode).toBe(401);
    expect((await post(`/notifications/${missing}/read`)).statusCode).toBe(401);
  });

  it("lists the user's own notifications, newest first, paginated, with the unread count", async () => {
    const learner = await t.createUser();
    const other = await t.createUser();
    // "newest first" needs times that differ: PGlite's clock ticks in milliseconds, and two
    // notifications of the same millisecond have no order but their random ids
    const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
    await notify(learner.id, "first");
    await tick();
    await notify(learner.id, "second");
    await tick();
    await notify(learner.id, "third");
    await notify(other.id, "not yours");

    const res = await list(learner.token, "?pageSize=2");
    expect(res.statusCode).toBe(200);
    const { notifications: items, pagination, unread } = res.json().data;
    expect(pagination).toEqual({ page: 1, pageSize: 2, total: 3 });
    expect(unread).toBe(3);
    expect(items.map((n: { data: { event_title_en: string } }) => n.data.event_title_en)).toEqual([
      "third",
      "second",
    ]);
    expect(Object.keys(items[0]).sort()).toEqual(["created_at", "data", "id", "kind", "link", "read_at"]);
    expect(items[0]).toMatchObject({ kind: "event.booked", link: "/events", read_at: null });

    const page2 = (await list(learner.token, "?pageSize=2&page=2")).json().data;
    expect(page2.notifications).toHaveLength(1);
    expect(page2.unread).toBe(3);
    expect((await list(learner.token, "?unread=maybe")).statusCode).toBe(422);
  });

  it("never stores a link that is not a local path", async () => {
    const learner = await t.createUser();
    await t.app.deps.services.notifications.notify(learner.id, "subscription.active", {}, "//evil.test/x");
    const [item] = (await list(learner.token)).json().data.notifications;
    expect(item.link).toBeNull();
  });
});

describe("POST /v1/notifications/{id}/read and /v1/notifications/read-all", () => {
  it("marks one read, then all; unread=true follows", async () => {
    const learner = await t.createUser();
    await notify(learner.id, "a");
    await notify(learner.id, "b");
    await notify(learner.id, "c");
    const [first] = (await list(learner.token)).json().data.notifications;

    const read = await post(`/notifications/${first.id}/read`, learner.token);
    expect(read.statusCode).toBe(200);
    const readAt = read.json().data.notification.read_at;
    expect(readAt).toEqual(expect.any(String));
    // reading again keeps the first read time
    const again = await post(`/notifications/${first.id}/read`, learner.token);
    expect(again.json().data.notification.read_at).toBe(readAt);

    const unread = (await list(learner.token, "?unread=true")).json().data;
    expect(unread.unread).toBe(2);
    expect(unread.pagination.total).toBe(2);
    expect(unread.notifications.map((n: { id: string }) => n.id)).not.toContain(first.id);

    const all = await post("/notifications/read-all", learner.token);
    expect(all.statusCode).toBe(200);
    expect(all.json().data).toEqual({ updated: 2 });
    expect((await post("/notifications/read-all", learner.token)).json().data).toEqual({ updated: 0 });
    const after = (await list(learner.token)).json().data;
    expect(after.unread).toBe(0);
    expect(after.pagination.total).toBe(3);
  });

  it("forbids other users: another user's notification is not found and stays unread", async () => {
    const owner = await t.createUser();
    const stranger = await t.createUser();
    await notify(owner.id, "private");
    await notify(stranger.id, "theirs");
    const [item] = (await list(owner.token)).json().data.notifications;

    const res = await post(`/notifications/${item.id}/read`, stranger.token);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe("NOT_FOUND");
    expect((await post(`/notifications/${missing}/read`, owner.token)).statusCode).toBe(404);
    expect((await post("/notifications/not-a-uuid/read", owner.token)).statusCode).toBe(400);

    // read-all of the stranger leaves the owner's untouched
    expect((await post("/notifications/read-all", stranger.token)).json().data).toEqual({ updated: 1 });
    expect((await list(owner.token)).json().data.unread).toBe(1);
  });
});

describe("notifications sent by other modules", () => {
  it("billing: an approved demo subscription, a learner's cancellation, a provider's cancellation", async () => {
    const plan = await post("/plans", admin, { name: "Monthly", name_fr: "Mensuel", amount: 990 });
    const planId = plan.json().data.plan.id;
    const learner = await t.createUser();
    const started = await post("/customer-plan", learner.token, { plan_id: planId });
    const { customerPlan } = started.json().data;
    // a pending checkout tells nothing yet
    expect((await list(learner.token)).json().data.unread).toBe(0);

    expect((await post(`/customer-plan/demo/${customerPlan.id}/approve`, learner.token)).statusCode).toBe(
      200,
    );
    let data = (await list(learner.token)).json().data;
    expect(data.unread).toBe(1);
    expect(data.notifications[0]).toMatchObject({
      kind: "subscription.active",
      data: { plan_name: "Monthly", plan_name_fr: "Mensuel" },
      link: "/billing",
      read_at: null,
    });
    // syncing again changes nothing, so tells nothing
    await post(`/customer-plan/update-last-payment`, learner.token, { customer_plan_id: customerPlan.id });
    expect((await list(learner.token)).json().data.unread).toBe(1);

    expect((await post(`/customer-plan/cancel/${customerPlan.id}`, learner.token)).statusCode).toBe(200);
    data = (await list(learner.token)).json().data;
    expect(data.unread).toBe(2);
    expect(data.notifications[0]).toMatchObject({
      kind: "subscription.cancelled",
      data: { plan_name: "Monthly", access_until: expect.any(String) },
    });

    // another learner whose subscription the provider cancels
    const other = await t.createUser();
    const second = (await post("/customer-plan", other.token, { plan_id: planId })).json().data.customerPlan;
    await post(`/customer-plan/demo/${second.id}/approve`, other.token);
    await t.app.deps.services.billing.transition(second.id, {
      id: second.paypal_subscription_id,
      status: "CANCELLED",
    });
    const ended = (await list(other.token)).json().data.notifications;
    expect(ended.map((n: { kind: string }) => n.kind)).toEqual(["subscription.ended", "subscription.active"]);
  });

  it("billing: a declined demo checkout tells nothing", async () => {
    const plan = await post("/plans", admin, {
      name: "Yearly",
      name_fr: "Annuel",
      amount: 9900,
      interval: "year",
    });
    const learner = await t.createUser();
    const { customerPlan } = (
      await post("/customer-plan", learner.token, { plan_id: plan.json().data.plan.id })
    ).json().data;
    await post(`/customer-plan/demo/${customerPlan.id}/decline`, learner.token);
    const [row] = await t.database.db
      .select()
      .from(customerPlans)
      .where(eq(customerPlans.id, customerPlan.id));
    expect(row?.status).toBe("CANCELLED");
    expect((await list(learner.token)).json().data.pagination.total).toBe(0);
  });

  it("events: a booking, and its cancellation by staff (not by the learner)", async () => {
    const day = 24 * 3600_000;
    const event = await post("/events", admin, {
      title_fr: "Club de conversation",
      title_en: "Conversation club",
      kind: "online",
      starts_at: new Date(Date.now() + 7 * day).toISOString(),
      ends_at: new Date(Date.now() + 7 * day + 3600_000).toISOString(),
      capacity: 5,
    });
    const eventId = event.json().data.event.id;
    const learner = await t.createUser();
    const booking = await post("/registrations/booking", learner.token, { event_id: eventId, places: 2 });
    expect(booking.statusCode).toBe(201);
    let items = (await list(learner.token)).json().data.notifications;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      kind: "event.booked",
      data: { event_title_fr: "Club de conversation", event_title_en: "Conversation club", places: 2 },
      link: `/events/${eventId}`,
    });

    // a refused booking (already booked) rolls back and leaves no notification
    expect(
      (await post("/registrations/booking", learner.token, { event_id: eventId, places: 1 })).statusCode,
    ).toBe(409);
    expect((await list(learner.token)).json().data.pagination.total).toBe(1);

    const registrationId = booking.json().data.registration.id;
    expect((await post(`/registrations/cancel/${registrationId}`, admin)).statusCode).toBe(200);
    items = (await list(learner.token)).json().data.notifications;
    expect(items.map((n: { kind: string }) => n.kind)).toEqual(["event.booking_cancelled", "event.booked"]);

    // the learner's own cancellation tells them nothing new
    const again = await post("/registrations/booking", learner.token, { event_id: eventId, places: 1 });
    await post(`/registrations/cancel/${again.json().data.registration.id}`, learner.token);
    const rows = await t.database.db.select().from(notifications).where(eq(notifications.userId, learner.id));
    expect(rows.map((r) => r.kind).sort()).toEqual([
      "event.booked",
      "event.booked",
      "event.booking_cancelled",
    ]);
  });
});
