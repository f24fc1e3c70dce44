import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { raced } from "../../../test/helpers/race";
import { mailOutbox, registrations } from "../../db/schema";
import { startEventReminders } from "../../jobs/event-reminders";
import { startOutboxWorker } from "../../jobs/outbox-worker";

// Events that fit a learner's week: premium-only events, the waiting list (served in order, also
// under concurrent cancellations), the confirmation mail with its .ics, the "Add to calendar"
// file, and the reminder 24 hours before, queued once.
let t: TestContext;
let admin: string;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

type Learner = { id: string; email: string; token: string };
const HOUR = 3600_000;
const at = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();

async function createEvent(overrides: Record<string, unknown> = {}) {
  const res = await t.request({
    method: "POST",
    url: "/api/v1/events",
    token: admin,
    payload: {
      title_fr: "Atelier de prononciation",
      title_en: "Pronunciation workshop",
      description_fr: "On s'entraîne.",
      description_en: "We practise.",
      kind: "online",
      online_url: "https://meet.example.com/secret-room",
      starts_at: at(72),
      ends_at: at(73),
      capacity: 2,
      ...overrides,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.event as { id: string; slug: string };
}
const book = (learner: Learner, eventId: string, extra: object = {}) =>
  t.request({
    method: "POST",
    url: "/api/v1/registrations/booking",
    token: learner.token,
    payload: { event_id: eventId, ...extra },
  });
const cancel = (learner: Learner, id: string) =>
  t.request({ method: "POST", url: `/api/v1/registrations/cancel/${id}`, token: learner.token });
const eventOf = async (id: string, token?: string) =>
  (await t.request({ method: "GET", url: `/api/v1/events/${id}`, ...(token ? { token } : {}) })).json().data
    .event;
const registrationOf = async (learner: Learner, id: string) =>
  (await t.request({ method: "GET", url: `/api/v1/registrations/single/${id}`, token: learner.token })).json()
    .data.registration;
const worker = () =>
  startOutboxWorker({
    outbox: t.app.deps.services.mailOutbox,
    mailer: t.mailbox,
    log: t.app.log,
    schedule: false,
  });

describe("premium-only events", () => {
  it("staff mark an event premium-only: a free learner gets 403 PREMIUM_REQUIRED, a paying one books", async () => {
    const event = await createEvent({ premium_only: true });
    expect((await eventOf(event.id)).premium_only).toBe(true);
    const free = await t.createUser();
    const refused = await book(free, event.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe("PREMIUM_REQUIRED");

    const plan = await t.request({
      method: "POST",
      url: "/api/v1/plans",
      token: admin,
      payload: { name: "Club", name_fr: "Club", amount: 500, interval: "month" },
    });
    const paying = await t.createUser();
    const started = await t.request({
      method: "POST",
      url: "/api/v1/customer-plan",
      token: paying.token,
      payload: { plan_id: plan.json().data.plan.id },
    });
    const id = started.json().data.customerPlan.id;
    await t.request({ method: "POST", url: `/api/v1/customer-plan/demo/${id}/approve`, token: paying.token });
    expect((await book(paying, event.id)).statusCode).toBe(201);

    // staff turn it off: everyone may book
    const open = await t.request({
      method: "PUT",
      url: `/api/v1/events/${event.id}`,
      token: admin,
      payload: { premium_only: false },
    });
    expect(open.json().data.event.premium_only).toBe(false);
    expect((await book(free, event.id)).statusCode).toBe(201);
  });
});

describe("waiting list", () => {
  it("a full event offers its waiting list; a cancellation gives the place to the first in line, who is mailed", async () => {
    const event = await createEvent({ capacity: 2 });
    const [a, b, c, d] = await Promise.all([
      t.createUser(),
      t.createUser(),
      t.createUser({ speak: "EN" }),
      t.createUser(),
    ]);
    if (!a || !b || !c || !d) throw new Error("users");
    const booked = (await book(a, event.id)).json().data.registration;
    expect((await book(b, event.id)).statusCode).toBe(201);
    const full = await book(c, event.id);
    expect(full.statusCode).toBe(409);
    expect(full.json().code).toBe("EVENT_FULL");
    expect(await eventOf(event.id)).toMatchObject({ bookable: false, waitlist_open: true, waiting_count: 0 });

    const cWaits = await book(c, event.id, { waitlist: true });
    expect(cWaits.statusCode).toBe(201);
    expect(cWaits.json().message).toBe("On the waiting list");
    const cRegistration = cWaits.json().data.registration;
    expect(cRegistration).toMatchObject({ status: "WAITING", waiting_position: 1 });
    expect(cRegistration.event.online_url).toBeNull();
    const dRegistration = (await book(d, event.id, { waitlist: true })).json().data.registration;
    expect(dRegistration.waiting_position).toBe(2);
    expect((await book(d, event.id, { waitlist: true })).json().code).toBe("ALREADY_BOOKED");
    expect(await eventOf(event.id)).toMatchObject({ places_left: 0, waiting_count: 2 });

    // staff see attendees and the line
    const list = await t.request({
      method: "GET",
      url: `/api/v1/events/${event.id}/registrations`,
      token: admin,
    });
    expect(list.json().data.registrations.map((r: { status: string }) => r.status)).toEqual([
      "BOOKED",
      "BOOKED",
      "WAITING",
      "WAITING",
    ]);

    expect((await cancel(a, booked.id)).json().data.registration.status).toBe("CANCELLED");
    const promoted = await registrationOf(c, cRegistration.id);
    expect(promoted).toMatchObject({ status: "BOOKED", waiting_position: null });
    expect(promoted.promoted_at).not.toBeNull();
    expect(promoted.event.online_url).toBe("https://meet.example.com/secret-room");
    expect((await registrationOf(d, dRegistration.id)).waiting_position).toBe(1);
    expect(await eventOf(event.id)).toMatchObject({ places_left: 0, waiting_count: 1, places_booked: 2 });

    // leaving the waiting list frees nothing and moves nobody
    expect((await cancel(d, dRegistration.id)).json().data.registration.status).toBe("CANCELLED");
    expect(await eventOf(event.id)).toMatchObject({ waiting_count: 0, places_booked: 2 });

    const w = worker();
    await w.runOnce();
    await w.stop();
    const mail = t.mailbox.messages.find((m) => m.to === c.email && m.subject === "Your place is booked");
    expect(mail?.text).toContain("Pronunciation workshop");
    expect(mail?.attachments?.[0]?.filename).toBe(`${event.slug}.ics`);
    expect(mail?.attachments?.[0]?.content).toContain("BEGIN:VCALENDAR");
    expect(mail?.attachments?.[0]?.content).toContain("SUMMARY:Pronunciation workshop");
    // a learner on the waiting list gets no confirmation
    expect(t.mailbox.messages.filter((m) => m.to === d.email)).toHaveLength(0);
  });

  it("concurrent cancellations fill the freed places from the waiting list once each, in order", async () => {
    const event = await createEvent({ capacity: 5 });
    const holders = await Promise.all(Array.from({ length: 5 }, () => t.createUser()));
    const holdings: string[] = [];
    for (const h of holders) holdings.push((await book(h, event.id)).json().data.registration.id as string);
    const waiting: { learner: Learner; id: string }[] = [];
    for (let i = 0; i < 8; i += 1) {
      const learner = await t.createUser();
      const res = await book(learner, event.id, { waitlist: true });
      expect(res.json().data.registration.waiting_position).toBe(i + 1);
      waiting.push({ learner, id: res.json().data.registration.id });
    }
    const results = await raced(t.database, () =>
      Promise.all(holders.map((h, i) => cancel(h, holdings[i] as string))),
    );
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const statuses = await Promise.all(waiting.map((w) => registrationOf(w.learner, w.id)));
    expect(statuses.map((r) => r.status)).toEqual([
      "BOOKED",
      "BOOKED",
      "BOOKED",
      "BOOKED",
      "BOOKED",
      "WAITING",
      "WAITING",
      "WAITING",
    ]);
    expect(statuses.slice(5).map((r) => r.waiting_position)).toEqual([1, 2, 3]);
    expect(await eventOf(event.id)).toMatchObject({ places_booked: 5, places_left: 0, waiting_count: 3 });
    // each promotion queued exactly one confirmation
    const keys = (await t.database.db.select().from(mailOutbox)).map((m) => m.dedupeKey);
    for (const w of waiting.slice(0, 5))
      expect(keys.filter((k) => k === `registration:${w.id}:booked`)).toHaveLength(1);
    for (const w of waiting.slice(5)) expect(keys).not.toContain(`registration:${w.id}:booked`);
  });

  it("a larger capacity serves the waiting list; a newcomer cannot jump the line", async () => {
    const event = await createEvent({ capacity: 1 });
    const [a, b, c] = await Promise.all([t.createUser(), t.createUser(), t.createUser()]);
    if (!a || !b || !c) throw new Error("users");
    await book(a, event.id);
    const bWaits = (await book(b, event.id, { waitlist: true })).json().data.registration;
    await t.request({
      method: "PUT",
      url: `/api/v1/events/${event.id}`,
      token: admin,
      payload: { capacity: 3 },
    });
    expect((await registrationOf(b, bWaits.id)).status).toBe("BOOKED");
    expect((await book(c, event.id)).statusCode).toBe(201);
  });
});

describe("calendar", () => {
  it("GET /v1/events/:id/ics: an .ics in the asked language, the meeting link only for bookers", async () => {
    const event = await createEvent({ capacity: 3 });
    const anonymous = await t.request({ method: "GET", url: `/api/v1/events/${event.id}/ics?lang=en` });
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.headers["content-type"]).toBe("text/calendar; charset=utf-8");
    expect(anonymous.headers["content-disposition"]).toBe(`attachment; filename="${event.slug}.ics"`);
    expect(anonymous.body).toContain("BEGIN:VEVENT");
    expect(anonymous.body).toContain("SUMMARY:Pronunciation workshop");
    expect(anonymous.body).toContain(`UID:${event.id}@parlons`);
    expect(anonymous.body).not.toContain("secret-room");
    const french = await t.request({ method: "GET", url: `/api/v1/events/${event.id}/ics` });
    expect(french.body).toContain("SUMMARY:Atelier de prononciation");

    const learner = await t.createUser();
    await book(learner, event.id);
    const mine = await t.request({
      method: "GET",
      url: `/api/v1/events/${event.id}/ics`,
      token: learner.token,
    });
    expect(mine.body).toContain("secret-room");
    expect(
      (await t.request({ method: "GET", url: "/api/v1/events/00000000-0000-4000-8000-000000000000/ics" }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.request({ method: "GET", url: `/api/v1/events/${event.id}/ics?lang=de` })).statusCode,
    ).toBe(422);
  });
});

describe("reminders", () => {
  it("are queued 24 hours before, once each, however many runs overlap; cancelled bookings get none", async () => {
    const soon = await createEvent({ capacity: 5, starts_at: at(20), ends_at: at(21) });
    const later = await createEvent({ capacity: 5, starts_at: at(50), ends_at: at(51) });
    const [a, b, c, d] = await Promise.all([
      t.createUser(),
      t.createUser({ speak: "EN" }),
      t.createUser(),
      t.createUser(),
    ]);
    if (!a || !b || !c || !d) throw new Error("users");
    await book(a, soon.id);
    await book(b, soon.id);
    const cBooking = (await book(c, soon.id)).json().data.registration;
    await cancel(c, cBooking.id);
    await book(d, later.id);

    const jobs = [1, 2, 3].map(() =>
      startEventReminders({ events: t.app.deps.services.events, log: t.app.log, schedule: false }),
    );
    const counts = await raced(t.database, () =>
      Promise.all([...jobs.map((j) => j.runOnce()), t.app.deps.services.events.remindDue()]),
    );
    expect(counts.reduce((sum, n) => sum + n, 0)).toBe(2);
    expect(await t.app.deps.services.events.remindDue()).toBe(0);
    for (const j of jobs) await j.stop();

    const reminded = await t.database.db
      .select()
      .from(registrations)
      .where(and(eq(registrations.eventId, soon.id), eq(registrations.status, "BOOKED")));
    expect(reminded.every((r) => r.remindedAt !== null)).toBe(true);
    const w = worker();
    await w.runOnce();
    await w.runOnce();
    await w.stop();
    const reminders = t.mailbox.messages.filter((m) => /Rappel|Reminder/.test(m.subject));
    expect(reminders.map((m) => m.to).sort()).toEqual([a.email, b.email].sort());
    expect(reminders.find((m) => m.to === b.email)?.text).toContain("Pronunciation workshop");
    expect(reminders.find((m) => m.to === a.email)?.text).toContain("Atelier de prononciation");

    // a day later the other event's turn comes, once
    const tomorrow = new Date(Date.now() + 30 * HOUR);
    expect(await t.app.deps.services.events.remindDue(tomorrow)).toBe(1);
    expect(await t.app.deps.services.events.remindDue(tomorrow)).toBe(0);
  });
});
