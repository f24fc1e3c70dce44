import { pickField, pickList } from "@parlons/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { courses, plans } from "../src/db/schema";
import { buildTestApp, type TestContext } from "./helpers/build";
import { courseInput, uploadAudio } from "./helpers/learning";

/**
 * Content in every locale (issue 22, part 6): courses, lessons, events, plans and lines carry a
 * text per locale of the list; French and English in their columns, the others in `translations`.
 * Staff write and read each locale; readers get theirs by the fallback rule.
 */
let t: TestContext;
let admin: string;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

const inDays = (days: number, hours = 0) =>
  new Date(Date.now() + days * 86_400_000 + hours * 3_600_000).toISOString();

describe("courses in every locale", () => {
  it("writes and reads the Spanish title and description; an update keeps what it leaves out", async () => {
    const created = await t.request({
      method: "POST",
      url: "/api/v1/courses",
      token: admin,
      payload: courseInput({ title_es: "Español para principiantes", description_es: "Primeros pasos" }),
    });
    expect(created.statusCode, created.body).toBe(201);
    const course = created.json().data.course;
    expect(course).toMatchObject({
      title_fr: "Espagnol pour débutants",
      title_en: "Spanish for beginners",
      title_es: "Español para principiantes",
      description_es: "Primeros pasos",
    });
    const [row] = await t.database.db.select().from(courses).where(eq(courses.id, course.id));
    expect(row?.translations).toEqual({
      es: { title: "Español para principiantes", description: "Primeros pasos" },
    });

    // a client that knows only French and English changes its fields and keeps the Spanish
    const frOnly = await t.request({
      method: "PUT",
      url: `/api/v1/courses/${course.id}`,
      token: admin,
      payload: { title_en: "Spanish, first steps" },
    });
    expect(frOnly.json().data.course).toMatchObject({
      title_en: "Spanish, first steps",
      title_es: "Español para principiantes",
    });
    // the public reads (what the catalogue and /es pages load) carry every locale
    const single = await t.request({ method: "GET", url: `/api/v1/courses/single/${course.slug}` });
    const read = single.json().data.course;
    expect(pickField(read, "title", "es")).toBe("Español para principiantes");
    expect(pickField(read, "title", "en")).toBe("Spanish, first steps");
    expect(pickField(read, "title", "fr")).toBe("Espagnol pour débutants");

    // emptied: gone from the row, and a Spanish reader gets the English (the fallback rule)
    const emptied = await t.request({
      method: "PUT",
      url: `/api/v1/courses/${course.id}`,
      token: admin,
      payload: { title_es: "  " },
    });
    const after = emptied.json().data.course;
    expect(after).toMatchObject({ title_es: "", description_es: "Primeros pasos" });
    expect(pickField(after, "title", "es")).toBe("Spanish, first steps");
    const [kept] = await t.database.db.select().from(courses).where(eq(courses.id, course.id));
    expect(kept?.translations).toEqual({ es: { description: "Primeros pasos" } });
  });

  it("refuses a Spanish title over the limit (422 naming the field)", async () => {
    const res = await t.request({
      method: "POST",
      url: "/api/v1/courses",
      token: admin,
      payload: courseInput({ title_es: "x".repeat(201) }),
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toContain("title_es");
  });
});

describe("lessons and their lines in every locale", () => {
  it("writes and reads a lesson's Spanish title and text, and each line's Spanish", async () => {
    const course = (
      await t.request({ method: "POST", url: "/api/v1/courses", token: admin, payload: courseInput() })
    ).json().data.course as { id: string };
    const audio = await uploadAudio(t, admin);
    const base = `/api/v1/courses/${course.id}/lessons`;
    const created = await t.request({
      method: "POST",
      url: base,
      token: admin,
      payload: {
        title_fr: "Bonjour",
        title_en: "Hello",
        title_es: "Hola",
        text_es: "Saludar",
        audio: audio.file_path,
        free: true,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const lesson = created.json().data.lesson;
    expect(lesson).toMatchObject({ title_es: "Hola", text_es: "Saludar", text_en: "" });
    const updated = await t.request({
      method: "PUT",
      url: `${base}/${lesson.id}`,
      token: admin,
      payload: { text_es: "", title_fr: "Salut" },
    });
    expect(updated.json().data.lesson).toMatchObject({ title_fr: "Salut", title_es: "Hola", text_es: "" });

    const cues = (body: object) =>
      t.request({ method: "PUT", url: `${base}/${lesson.id}/cues`, token: admin, payload: body });
    const written = await cues({
      cues: [
        {
          start: 0,
          end: 2,
          text: "Hello.",
          translation_fr: "Bonjour.",
          translation_en: "Hello.",
          translation_es: "Hola.",
        },
        { start: 2, end: 4, text: "Goodbye.", translation_fr: "Au revoir." },
      ],
    });
    expect(written.statusCode, written.body).toBe(200);
    const [first, second] = written.json().data.cues;
    expect(first).toMatchObject({ translation_es: "Hola." });
    expect(second).toMatchObject({ translation_es: "" });
    // a client that sends no Spanish keeps it; one that sends it changes it
    const again = await cues({
      cues: [
        { id: first.id, start: 0, end: 2, text: "Hello.", translation_fr: "Bonjour !" },
        { id: second.id, start: 2, end: 4, text: "Goodbye.", translation_es: "Adiós." },
      ],
    });
    expect(again.json().data.cues).toMatchObject([
      { id: first.id, translation_fr: "Bonjour !", translation_es: "Hola." },
      { id: second.id, translation_es: "Adiós." },
    ]);
    const list = await t.request({ method: "GET", url: base, token: admin });
    const read = list.json().data.lessons[0];
    expect(read).toMatchObject({ title_es: "Hola" });
    expect(read.cues.map((c: { translation_es: string }) => c.translation_es)).toEqual(["Hola.", "Adiós."]);
  });
});

describe("events in every locale", () => {
  it("writes and reads the Spanish texts; the calendar file follows the fallback rule", async () => {
    const created = await t.request({
      method: "POST",
      url: "/api/v1/events",
      token: admin,
      payload: {
        title_fr: "Club de conversation",
        title_en: "Conversation club",
        title_es: "Club de conversación",
        kind: "online",
        online_url: "https://meet.example.com/room",
        starts_at: inDays(7),
        ends_at: inDays(7, 1),
        capacity: 5,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const event = created.json().data.event;
    expect(event).toMatchObject({ title_es: "Club de conversación", description_es: "" });
    const ics = (lang: string) =>
      t.request({ method: "GET", url: `/api/v1/events/${event.id}/ics?lang=${lang}` }).then((r) => r.body);
    expect(await ics("es")).toContain("SUMMARY:Club de conversación");
    expect(await ics("fr")).toContain("SUMMARY:Club de conversation");

    const put = await t.request({
      method: "PUT",
      url: `/api/v1/events/${event.id}`,
      token: admin,
      payload: { title_es: "", description_es: "Hablamos." },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data.event).toMatchObject({ title_es: "", description_es: "Hablamos." });
    // no Spanish title any more: a Spanish reader gets the English one
    expect(await ics("es")).toContain("SUMMARY:Conversation club");
    const read = (await t.request({ method: "GET", url: `/api/v1/events/${event.id}` })).json().data.event;
    expect(pickField(read, "description", "es")).toBe("Hablamos.");
  });
});

describe("plans in every locale", () => {
  it("writes and reads the Spanish name, description and features; the public list carries them", async () => {
    const created = await t.request({
      method: "POST",
      url: "/api/v1/plans",
      token: admin,
      payload: {
        name: "Premium",
        name_fr: "Premium FR",
        name_es: "Prémium",
        description_es: "Todo",
        features_en: ["Offline listening"],
        features_es: ["Escucha sin conexión"],
        amount: 990,
        currency: "EUR",
        interval: "month",
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const plan = created.json().data.plan;
    expect(plan).toMatchObject({
      name_es: "Prémium",
      description_es: "Todo",
      features_es: ["Escucha sin conexión"],
    });

    const put = await t.request({
      method: "PUT",
      url: `/api/v1/plans/${plan.id}`,
      token: admin,
      payload: { features_es: [], amount: 1090 },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data.plan).toMatchObject({ name_es: "Prémium", features_es: [], amount: 1090 });
    const [row] = await t.database.db.select().from(plans).where(eq(plans.id, plan.id));
    expect(row?.translations).toEqual({ es: { name: "Prémium", description: "Todo" } });

    const active = await t.request({ method: "GET", url: "/api/v1/plans/active" });
    const listed = active.json().data.plans.find((p: { id: string }) => p.id === plan.id);
    expect(
      pickField({ name_fr: listed.name_fr, name_en: listed.name, name_es: listed.name_es }, "name", "es"),
    ).toBe("Prémium");
    // features emptied in Spanish: a Spanish reader gets the English list
    expect(pickList(listed, "features", "es")).toEqual(["Offline listening"]);
  });
});
