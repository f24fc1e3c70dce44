import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { EVERY_POWER, principal, requestOf } from "../../../test/helpers/principal";
import { raced } from "../../../test/helpers/race";
import { DEMO_EVENT_SLUG, seedDemoEvent } from "../../db/demo/events";
import { auditLog, events, menuModules } from "../../db/schema";
import { seedBase } from "../../db/seed";
import { ownerDecision } from "../../plugins/access";
import { canSeeEvent, isEventStaff, registrationPolicy } from "./policy";

let t: TestContext;
let admin: string;
let learner: { id: string; token: string };
let other: { id: string; token: string };
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.adminToken();
  learner = await t.createUser();
  other = await t.createUser();
});
afterAll(() => t.close());

const missing = "00000000-0000-4000-8000-000000000000";
const DAY = 24 * 60 * 60 * 1000;
const inDays = (days: number, hours = 0) =>
  new Date(Date.now() + days * DAY + hours * 3600_000).toISOString();

interface EventItem {
  id: string;
  slug: string;
  capacity: number;
  places_left: number;
  places_booked: number;
  bookable: boolean;
  online_url: string | null;
  active: boolean;
}
interface Registration {
  id: string;
  event_id: string;
  user_id: string;
  places: number;
  status: "BOOKED" | "CANCELLED";
  cancelled_at: string | null;
  event: EventItem;
}

function eventPayload(overrides: Record<string, unknown> = {}) {
  return {
    title_fr: "Club de conversation",
    title_en: "Conversation club",
    description_fr: "On parle.",
    description_en: "We talk.",
    kind: "online",
    online_url: "https://meet.example.com/room",
    starts_at: inDays(7),
    ends_at: inDays(7, 1),
    capacity: 5,
    ...overrides,
  };
}

async function createEvent(overrides: Record<string, unknown> = {}): Promise<EventItem> {
  const res = await t.request({
    method: "POST",
    url: "/api/v1/events",
    token: admin,
    payload: eventPayload(overrides),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.event;
}

const book = (token: string | undefined, event_id: string, places = 1) =>
  t.request({ method: "POST", url: "/api/v1/registrations/booking", token, payload: { event_id, places } });

const getEvent = async (id: string, token?: string): Promise<EventItem> => {
  const res = await t.request({ method: "GET", url: `/api/v1/events/${id}`, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.event;
};

describe("POST /v1/events, PUT, DELETE (staff)", () => {
  it("creates an event (slug from the French title, unique), audited", async () => {
    const first = await createEvent();
    expect(first).toMatchObject({
      slug: "club-de-conversation",
      capacity: 5,
      places_left: 5,
      places_booked: 0,
      bookable: true,
      active: true,
      online_url: "https://meet.example.com/room",
    });
    const second = await createEvent();
    expect(second.slug).toBe("club-de-conversation-2");
    const [entry] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "events.create"), eq(auditLog.targetId, first.id)));
    expect(entry?.targetType).toBe("event");
  });

  it("requires authentication and events.manage", async () => {
    const payload = eventPayload();
    expect((await t.request({ method: "POST", url: "/api/v1/events", payload })).statusCode).toBe(401);
    const res = await t.request({ method: "POST", url: "/api/v1/events", token: learner.token, payload });
    expect(res.statusCode).toBe(403);
    const event = await createEvent();
    for (const [method, url] of [
      ["PUT", `/api/v1/events/${event.id}`],
      ["DELETE", `/api/v1/events/${event.id}`],
      ["GET", `/api/v1/events/${event.id}/registrations`],
    ] as const) {
      const body = method === "PUT" ? { capacity: 9 } : undefined;
      expect((await t.request({ method, url, payload: body })).statusCode, `${method} ${url}`).toBe(401);
      expect((await t.request({ method, url, token: learner.token, payload: body })).statusCode).toBe(403);
    }
  });

  it("validates the fields (422) and refuses a malformed id (400)", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ title_fr: "" }, "title_fr"],
      [{ kind: "hybrid" }, "kind"],
      [{ capacity: 0 }, "capacity"],
      [{ capacity: 2.5 }, "capacity"],
      [{ starts_at: "tomorrow" }, "starts_at"],
      [{ ends_at: inDays(6) }, "ends_at"],
      [{ kind: "in_person", location: null }, "location"],
      [{ online_url: "javascript:alert(1)" }, "online_url"],
    ];
    for (const [overrides, field] of cases) {
      const res = await t.request({
        method: "POST",
        url: "/api/v1/events",
        token: admin,
        payload: eventPayload(overrides),
      });
      expect(res.statusCode, JSON.stringify(overrides)).toBe(422);
      expect(Object.keys(res.json().errors ?? {}), JSON.stringify(overrides)).toContain(field);
    }
    const event = await createEvent();
    // rules between fields also hold against the stored event
    const res = await t.request({
      method: "PUT",
      url: `/api/v1/events/${event.id}`,
      token: admin,
      payload: { ends_at: inDays(1) },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toHaveProperty("ends_at");
    expect((await t.request({ method: "GET", url: "/api/v1/events/not-a-uuid" })).statusCode).toBe(400);
  });

  it("updates, answers 404 for an unknown event, and keeps the capacity above the places booked", async () => {
    const event = await createEvent({ capacity: 4 });
    const res = await t.request({
      method: "PUT",
      url: `/api/v1/events/${event.id}`,
      token: admin,
      payload: { title_en: "Speaking club", kind: "in_person", location: "12 rue de la Paix, Paris" },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.event).toMatchObject({ title_en: "Speaking club", kind: "in_person" });
    expect((await book(learner.token, event.id, 3)).statusCode).toBe(201);
    const lower = await t.request({
      method: "PUT",
      url: `/api/v1/events/${event.id}`,
      token: admin,
      payload: { capacity: 2 },
    });
    expect(lower.statusCode).toBe(422);
    expect(lower.json().errors).toHaveProperty("capacity");
    const notFound = await t.request({
      method: "PUT",
      url: `/api/v1/events/${missing}`,
      token: admin,
      payload: { capacity: 3 },
    });
    expect(notFound.statusCode).toBe(404);
    expect(
      (await t.request({ method: "DELETE", url: `/api/v1/events/${missing}`, token: admin })).statusCode,
    ).toBe(404);
  });

  it("refuses to delete an event with bookings (409) unless forced, which cancels them", async () => {
    const event = await createEvent();
    const registration = (await book(learner.token, event.id, 2)).json().data.registration as Registration;
    const refused = await t.request({ method: "DELETE", url: `/api/v1/events/${event.id}`, token: admin });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe("CONFLICT");
    const forced = await t.request({
      method: "DELETE",
      url: `/api/v1/events/${event.id}?force=true`,
      token: admin,
    });
    expect(forced.statusCode).toBe(200);
    expect(forced.json().data).toEqual({ id: event.id, cancelled_registrations: 1 });
    expect(
      (await t.request({ method: "GET", url: `/api/v1/events/${event.id}`, token: admin })).statusCode,
    ).toBe(404);
    const gone = await t.request({
      method: "GET",
      url: `/api/v1/registrations/single/${registration.id}`,
      token: learner.token,
    });
    expect(gone.statusCode).toBe(404);
    const [entry] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "events.delete"), eq(auditLog.targetId, event.id)));
    expect(entry?.before).toMatchObject({ cancelled_registrations: [{ userId: learner.id, places: 2 }] });

    const empty = await createEvent();
    expect(
      (await t.request({ method: "DELETE", url: `/api/v1/events/${empty.id}`, token: admin })).statusCode,
    ).toBe(200);
  });
});

describe("GET /v1/events, GET /v1/events/{id}", () => {
  it("lists upcoming active events for everyone; staff also see inactive ones and past ones on request", async () => {
    const upcoming = await createEvent({ starts_at: inDays(3), ends_at: inDays(3, 2) });
    const hidden = await createEvent({ active: false });
    const past = await createEvent({ starts_at: inDays(-3), ends_at: inDays(-3, 1) });
    const ids = async (token?: string, query = "") => {
      const res = await t.request({ method: "GET", url: `/api/v1/events?pageSize=100${query}`, token });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.pagination).toMatchObject({ page: 1, pageSize: 100 });
      return (res.json().data.events as EventItem[]).map((e) => e.id);
    };
    for (const token of [undefined, learner.token]) {
      const list = await ids(token, "&include=past");
      expect(list).toContain(upcoming.id);
      expect(list).not.toContain(hidden.id);
      expect(list).not.toContain(past.id);
    }
    expect(await ids(admin)).toEqual(expect.arrayContaining([upcoming.id, hidden.id]));
    expect(await ids(admin)).not.toContain(past.id);
    expect(await ids(admin, "&include=past")).toContain(past.id);
    const invalid = await t.request({ method: "GET", url: "/api/v1/events?pageSize=1000" });
    expect(invalid.statusCode).toBe(422);
  });

  it("shows an active event to anyone, an inactive one to staff only, the meeting link to bookers only", async () => {
    const event = await createEvent();
    const visitor = await getEvent(event.id);
    expect(visitor.online_url).toBeNull();
    expect((await getEvent(event.id, learner.token)).online_url).toBeNull();
    expect((await book(learner.token, event.id)).statusCode).toBe(201);
    expect((await getEvent(event.id, learner.token)).online_url).toBe("https://meet.example.com/room");
    expect((await getEvent(event.id, other.token)).online_url).toBeNull();

    const hidden = await createEvent({ active: false });
    expect((await t.request({ method: "GET", url: `/api/v1/events/${hidden.id}` })).statusCode).toBe(404);
    expect(
      (await t.request({ method: "GET", url: `/api/v1/events/${hidden.id}`, token: learner.token }))
        .statusCode,
    ).toBe(404);
    expect((await getEvent(hidden.id, admin)).active).toBe(false);
    expect((await t.request({ method: "GET", url: `/api/v1/events/${missing}` })).statusCode).toBe(404);
  });
});

describe("POST /v1/registrations/booking", () => {
  it("books places (201) and counts them", async () => {
    const event = await createEvent();
    const res = await book(learner.token, event.id, 2);
    expect(res.statusCode, res.body).toBe(201);
    const registration = res.json().data.registration as Registration;
    expect(registration).toMatchObject({
      event_id: event.id,
      user_id: learner.id,
      places: 2,
      status: "BOOKED",
    });
    expect(registration.event).toMatchObject({ places_left: 3, places_booked: 2 });
    expect((await getEvent(event.id)).places_left).toBe(3);
  });

  it("requires authentication and events.book; 404 for unknown or inactive events", async () => {
    const event = await createEvent();
    expect((await book(undefined, event.id)).statusCode).toBe(401);
    await t.app.deps.services.roles.createRole({ title: "READER", permissions: ["learn"] }, EVERY_POWER);
    const reader = await t.createUser({ role: "READER" });
    const refused = await book(reader.token, event.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe("FORBIDDEN");
    expect((await book(learner.token, missing)).statusCode).toBe(404);
    const hidden = await createEvent({ active: false });
    expect((await book(learner.token, hidden.id)).statusCode).toBe(404);
  });

  it("refuses invalid places (422), a started or ended event (422 EVENT_CLOSED), a second booking (409)", async () => {
    const event = await createEvent();
    for (const places of [0, 6, 1.5]) {
      const res = await book(learner.token, event.id, places);
      expect(res.statusCode, String(places)).toBe(422);
      expect(res.json().errors).toHaveProperty("places");
    }
    const noEvent = await t.request({
      method: "POST",
      url: "/api/v1/registrations/booking",
      token: learner.token,
      payload: { places: 1 },
    });
    expect(noEvent.statusCode).toBe(422);
    const started = await createEvent({ starts_at: inDays(0, -1), ends_at: inDays(0, 1) });
    const closed = await book(learner.token, started.id);
    expect(closed.statusCode).toBe(422);
    expect(closed.json().code).toBe("EVENT_CLOSED");
    const ended = await createEvent({ starts_at: inDays(-2), ends_at: inDays(-2, 1) });
    expect((await book(learner.token, ended.id)).json().code).toBe("EVENT_CLOSED");

    expect((await book(learner.token, event.id)).statusCode).toBe(201);
    const again = await book(learner.token, event.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe("ALREADY_BOOKED");
  });

  it("answers 409 EVENT_FULL when fewer places are left than asked", async () => {
    const event = await createEvent({ capacity: 3 });
    expect((await book(learner.token, event.id, 2)).statusCode).toBe(201);
    const full = await book(other.token, event.id, 2);
    expect(full.statusCode).toBe(409);
    expect(full.json().code).toBe("EVENT_FULL");
    expect((await book(other.token, event.id, 1)).statusCode).toBe(201);
    const after = await getEvent(event.id);
    expect(after).toMatchObject({ places_left: 0, bookable: false });
  });

  it("never overbooks: 20 concurrent bookings of one place on a 5-place event, exactly 5 succeed", async () => {
    const event = await createEvent({ capacity: 5 });
    const people = await Promise.all(Array.from({ length: 20 }, () => t.createUser()));
    // on PostgreSQL the bookings must really overlap (several pool connections), not take turns
    const results = await raced(t.database, () => Promise.all(people.map((p) => book(p.token, event.id, 1))));
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 409)).toHaveLength(15);
    for (const r of results.filter((x) => x.statusCode === 409)) expect(r.json().code).toBe("EVENT_FULL");
    expect(await getEvent(event.id)).toMatchObject({ places_left: 0, places_booked: 5 });

    // the same learner double-clicking: one booking only
    const event2 = await createEvent({ capacity: 5 });
    const twice = await Promise.all([book(learner.token, event2.id), book(learner.token, event2.id)]);
    expect(twice.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect((await getEvent(event2.id)).places_booked).toBe(1);
  });
});

describe("registrations: single, mine, cancel", () => {
  it("shows a registration to its owner and staff only; 404 for others", async () => {
    const event = await createEvent();
    const registration = (await book(learner.token, event.id, 2)).json().data.registration as Registration;
    const url = `/api/v1/registrations/single/${registration.id}`;
    const own = await t.request({ method: "GET", url, token: learner.token });
    expect(own.statusCode).toBe(200);
    expect(own.json().data.registration).toMatchObject({ id: registration.id, places: 2 });
    expect(own.json().data.registration.event.online_url).toBe("https://meet.example.com/room");
    expect((await t.request({ method: "GET", url, token: admin })).statusCode).toBe(200);
    expect((await t.request({ method: "GET", url, token: other.token })).statusCode).toBe(404);
    expect((await t.request({ method: "GET", url })).statusCode).toBe(401);
    expect(
      (
        await t.request({
          method: "GET",
          url: `/api/v1/registrations/single/${missing}`,
          token: learner.token,
        })
      ).statusCode,
    ).toBe(404);
  });

  it("cancels a booking: places freed, owner or staff only, twice changes nothing", async () => {
    const event = await createEvent({ capacity: 2 });
    const registration = (await book(learner.token, event.id, 2)).json().data.registration as Registration;
    expect((await book(other.token, event.id)).json().code).toBe("EVENT_FULL");
    const url = `/api/v1/registrations/cancel/${registration.id}`;
    expect((await t.request({ method: "POST", url })).statusCode).toBe(401);
    expect((await t.request({ method: "POST", url, token: other.token })).statusCode).toBe(404);
    const res = await t.request({ method: "POST", url, token: learner.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.registration).toMatchObject({ status: "CANCELLED" });
    expect(res.json().data.registration.cancelled_at).toBeTruthy();
    expect((await getEvent(event.id)).places_left).toBe(2);
    expect(
      (await t.request({ method: "POST", url, token: learner.token })).json().data.registration.status,
    ).toBe("CANCELLED");
    // the places went to someone else, and the first learner may book again
    expect((await book(other.token, event.id)).statusCode).toBe(201);
    expect((await book(learner.token, event.id)).statusCode).toBe(201);
    expect(
      (
        await t.request({
          method: "POST",
          url: `/api/v1/registrations/cancel/${missing}`,
          token: learner.token,
        })
      ).statusCode,
    ).toBe(404);
  });

  it("lets staff cancel anyone's booking, recorded in the audit log", async () => {
    const event = await createEvent();
    const registration = (await book(other.token, event.id)).json().data.registration as Registration;
    const res = await t.request({
      method: "POST",
      url: `/api/v1/registrations/cancel/${registration.id}`,
      token: admin,
    });
    expect(res.statusCode).toBe(200);
    const [entry] = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "registrations.cancel"))
      .orderBy(desc(auditLog.createdAt))
      .limit(1);
    expect(entry).toMatchObject({ targetId: registration.id, before: { user_id: other.id, places: 1 } });
  });

  it("lists my bookings (upcoming first when asked), never anyone else's", async () => {
    const user = await t.createUser();
    const later = await createEvent({ starts_at: inDays(20), ends_at: inDays(20, 1) });
    const sooner = await createEvent({ starts_at: inDays(2), ends_at: inDays(2, 1) });
    await book(user.token, later.id, 1);
    const cancelled = (await book(user.token, sooner.id, 1)).json().data.registration as Registration;
    await t.request({
      method: "POST",
      url: `/api/v1/registrations/cancel/${cancelled.id}`,
      token: user.token,
    });
    await book(user.token, sooner.id, 3);
    await book(other.token, later.id, 1);

    const all = await t.request({ method: "GET", url: "/api/v1/registrations/mine", token: user.token });
    expect(all.statusCode).toBe(200);
    const list = all.json().data.registrations as Registration[];
    expect(list).toHaveLength(3);
    expect(list.every((r) => r.user_id === user.id)).toBe(true);
    const booked = await t.request({
      method: "GET",
      url: "/api/v1/registrations/mine?status=BOOKED&upcoming=true",
      token: user.token,
    });
    expect((booked.json().data.registrations as Registration[]).map((r) => [r.event_id, r.places])).toEqual([
      [sooner.id, 3],
      [later.id, 1],
    ]);
    expect((await t.request({ method: "GET", url: "/api/v1/registrations/mine" })).statusCode).toBe(401);
    const invalid = await t.request({
      method: "GET",
      url: "/api/v1/registrations/mine?status=LOST",
      token: user.token,
    });
    expect(invalid.statusCode).toBe(422);
  });

  it("lists an event's registrations for staff with who booked", async () => {
    const event = await createEvent();
    await book(learner.token, event.id, 2);
    await book(other.token, event.id, 1);
    const res = await t.request({
      method: "GET",
      url: `/api/v1/events/${event.id}/registrations`,
      token: admin,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.places_booked).toBe(3);
    const rows = res.json().data.registrations as { user: { id: string; email: string }; places: number }[];
    expect(rows.map((r) => [r.user.id, r.places])).toEqual([
      [learner.id, 2],
      [other.id, 1],
    ]);
    expect(rows[0]?.user.email).toMatch(/@test\.local$/);
    const notFound = await t.request({
      method: "GET",
      url: `/api/v1/events/${missing}/registrations`,
      token: admin,
    });
    expect(notFound.statusCode).toBe(404);
    const invalid = await t.request({
      method: "GET",
      url: `/api/v1/events/${event.id}/registrations?status=nope`,
      token: admin,
    });
    expect(invalid.statusCode).toBe(422);
  });
});

describe("seed", () => {
  it("adds the events and configuration menu entries to an install seeded before them, once", async () => {
    const db = t.database.db;
    await db.delete(menuModules).where(eq(menuModules.path, "/events"));
    await db.delete(menuModules).where(eq(menuModules.path, "/configs"));
    await seedBase(db, { email: "admin@test.local", password: "Admin-pass1!" });
    await seedBase(db, { email: "admin@test.local", password: "Admin-pass1!" });
    const rows = await db.select().from(menuModules);
    expect(rows.filter((r) => r.path === "/events")).toHaveLength(1);
    expect(rows.filter((r) => r.path === "/configs")).toHaveLength(1);
    expect(rows.filter((r) => r.path === "/events/manage")).toHaveLength(1);
    const admin = rows.find((r) => r.path === "/admin");
    expect(rows.find((r) => r.path === "/configs")?.parentId).toBe(admin?.id);
    expect(rows.filter((r) => r.path === "/User")).toHaveLength(2);
  });

  it("seeds the demo event once, in the future", async () => {
    await t.database.db.delete(events).where(eq(events.slug, DEMO_EVENT_SLUG));
    await seedDemoEvent(t.database.db);
    await seedDemoEvent(t.database.db, new Date(Date.now() + 100 * DAY));
    const rows = await t.database.db.select().from(events).where(eq(events.slug, DEMO_EVENT_SLUG));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.startsAt.getTime()).toBeGreaterThan(Date.now());
    expect(rows[0]).toMatchObject({ kind: "online", capacity: 12, active: true });
  });
});

describe("policy", () => {
  const bookingId = "0190a0a0-0000-7000-8000-000000000001";
  it("staff see everything; learners their own registrations and active events", async () => {
    const staff = principal("s", ["events.manage"]);
    const owner = principal("o", ["events.book"]);
    const stranger = principal("x", ["events.book"]);
    expect(isEventStaff(staff)).toBe(true);
    expect(isEventStaff(owner)).toBe(false);
    expect(canSeeEvent(null, { active: true })).toBe(true);
    expect(canSeeEvent(owner, { active: false })).toBe(false);
    expect(canSeeEvent(staff, { active: false })).toBe(true);
    const lookedUp: string[] = [];
    const policy = registrationPolicy(async (id) => {
      lookedUp.push(id);
      return id === bookingId ? "o" : null;
    });
    const params = (id: string) => requestOf({ params: { id } });
    expect(await ownerDecision(policy, owner, params(bookingId))).toBe("allow");
    expect(await ownerDecision(policy, stranger, params(bookingId))).toBe("deny");
    expect(await ownerDecision(policy, owner, params(missing))).toBe("deny");
    expect(await ownerDecision(policy, stranger, params("not-a-uuid"))).toBe("invalid");
    expect(await ownerDecision(policy, staff, params(bookingId))).toBe("allow");
    // staff pass without a lookup; a malformed id is not looked up either
    expect(lookedUp).toEqual([bookingId, bookingId, missing]);
  });
});
