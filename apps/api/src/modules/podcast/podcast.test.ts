import { decodeAudio } from "@parlons/aligner";
import { DOMParser, type Element as XmlElement } from "@xmldom/xmldom";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { courseWithLessons, makePremium, toneMp3 } from "../../../test/helpers/learning";
import { runsOf } from "../../../test/helpers/session-audio";
import { customerPlans, podcastFeeds, users } from "../../db/schema";
import { scrubUrl } from "../../lib/log-serializers";
import { ITUNES_NS, PODCAST_NS } from "./feed-xml";

let t: TestContext;
let admin: string;
let fx: Awaited<ReturnType<typeof courseWithLessons>>;
const LINES = ["Hola, ¿qué tal?", "Muy bien, gracias.", "Hasta luego & adiós <3"];
const PUBLIC = "http://parlons.test";

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.adminToken();
  fx = await courseWithLessons(t, admin);
  const put = await t.request({
    method: "PUT",
    url: `/api/v1/courses/${fx.course.id}/lessons/${fx.free.id}/cues`,
    token: admin,
    payload: {
      cues: LINES.map((text, i) => ({ start: i * 3, end: i * 3 + 2.5, text, translation_fr: `Phrase ${i}` })),
    },
  });
  expect(put.statusCode, put.body).toBe(200);
});
afterAll(() => t.close());

/** A learner who started the course (progress in its free lesson), with a feed. */
async function learnerWithFeed(opts: { premium?: boolean } = {}) {
  const learner = await t.createUser();
  if (opts.premium) await makePremium(t, learner.id);
  const done = await t.request({
    method: "POST",
    url: `/api/v1/courses/${fx.course.id}/lessons/done-customer`,
    token: learner.token,
    payload: { lesson_id: fx.free.id, done: true },
  });
  expect(done.statusCode, done.body).toBe(200);
  const made = await t.request({ method: "POST", url: "/api/v1/podcast/feed", token: learner.token });
  expect(made.statusCode, made.body).toBe(200);
  return { ...learner, url: made.json().data.feed.url as string };
}

/** A URL of the feed as the app sees it, without the public origin (inject talks to the app). */
const local = (url: string) => {
  expect(url.startsWith(`${PUBLIC}/api/`)).toBe(true);
  return url.slice(PUBLIC.length);
};
const get = (url: string, headers: Record<string, string> = {}) =>
  t.request({ method: "GET", url: local(url), headers });

const child = (parent: XmlElement, ns: string | null, name: string) =>
  Array.from(parent.childNodes).filter(
    (n): n is XmlElement =>
      n.nodeType === 1 && (n as XmlElement).localName === name && (n as XmlElement).namespaceURI === ns,
  );
const one = (parent: XmlElement, ns: string | null, name: string) => {
  const found = child(parent, ns, name);
  expect(found, `exactly one <${name}> in <${parent.tagName}>`).toHaveLength(1);
  return found[0] as XmlElement;
};
const textOf = (parent: XmlElement, name: string, ns: string | null = null) =>
  (one(parent, ns, name).textContent ?? "").trim();

/**
 * Parses the feed (a parse error throws) and checks it against RSS 2.0 (channel title, link and
 * description; each item a title, a non-link guid, an enclosure with a URL, a length in bytes and a
 * MIME type, an RFC 822 date), Apple's tags (image, category, explicit, language) and Podcasting
 * 2.0's (transcript: url and type text/vtt; chapters: url and type application/json+chapters),
 * each in its namespace. Returns the items.
 */
function validFeed(xml: string) {
  const doc = new DOMParser({
    onError: (level, message) => {
      throw new Error(`XML ${level}: ${message}`);
    },
  }).parseFromString(xml, "text/xml");
  const rss = doc.documentElement as XmlElement;
  expect(rss.localName).toBe("rss");
  expect(rss.getAttribute("version")).toBe("2.0");
  expect(rss.lookupNamespaceURI("itunes")).toBe(ITUNES_NS);
  expect(rss.lookupNamespaceURI("podcast")).toBe(PODCAST_NS);
  const channel = one(rss, null, "channel");
  expect(textOf(channel, "title")).not.toBe("");
  expect(textOf(channel, "link")).toMatch(/^https?:\/\//);
  expect(textOf(channel, "description")).not.toBe("");
  expect(textOf(channel, "language")).toMatch(/^[a-z]{2}$/);
  expect(one(channel, ITUNES_NS, "image").getAttribute("href")).toMatch(/^https?:\/\/.+\.(png|jpg)$/);
  expect(one(channel, ITUNES_NS, "category").getAttribute("text")).toBe("Education");
  expect(["true", "false"]).toContain(textOf(channel, "explicit", ITUNES_NS));
  // a learner's feed is kept out of directories
  expect(textOf(channel, "locked", PODCAST_NS)).toBe("yes");
  expect(textOf(channel, "block", PODCAST_NS)).toBe("yes");
  const items = child(channel, null, "item");
  const guids = new Set<string>();
  const episodes = items.map((item) => {
    const guid = one(item, null, "guid");
    expect(guid.getAttribute("isPermaLink")).toBe("false");
    guids.add(guid.textContent ?? "");
    const pubDate = textOf(item, "pubDate");
    expect(pubDate).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    expect(Number.isNaN(Date.parse(pubDate))).toBe(false);
    const enclosure = one(item, null, "enclosure");
    expect(enclosure.getAttribute("length")).toMatch(/^[1-9]\d*$/);
    expect(enclosure.getAttribute("type")).toBe("audio/mpeg");
    expect(textOf(item, "duration", ITUNES_NS)).toMatch(/^\d+$/);
    // a lesson has its lines as a transcript and chapters; the daily session has neither
    const lesson = (guid.textContent ?? "").startsWith("parlons:lesson:");
    const transcripts = child(item, PODCAST_NS, "transcript");
    const chapterLists = child(item, PODCAST_NS, "chapters");
    expect(transcripts).toHaveLength(lesson ? 1 : 0);
    expect(chapterLists).toHaveLength(lesson ? 1 : 0);
    const [transcript] = transcripts;
    const [chapters] = chapterLists;
    if (transcript) expect(transcript.getAttribute("type")).toBe("text/vtt");
    if (chapters) expect(chapters.getAttribute("type")).toBe("application/json+chapters");
    return {
      title: textOf(item, "title"),
      guid: guid.textContent ?? "",
      audio: enclosure.getAttribute("url") as string,
      length: Number(enclosure.getAttribute("length")),
      duration: Number(textOf(item, "duration", ITUNES_NS)),
      transcript: transcript?.getAttribute("url") as string,
      chapters: chapters?.getAttribute("url") as string,
    };
  });
  expect(guids.size).toBe(items.length);
  return episodes;
}

async function episodesOf(feedUrl: string) {
  const res = await get(feedUrl);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers["content-type"]).toBe("application/rss+xml; charset=utf-8");
  return validFeed(res.body).filter((e) => e.guid.startsWith("parlons:lesson:"));
}

/** The feed's daily session episode (every episode checked by validFeed), if it has one. */
async function sessionOf(feedUrl: string) {
  const res = await get(feedUrl);
  expect(res.statusCode, res.body).toBe(200);
  const sessions = validFeed(res.body).filter((e) => e.guid.startsWith("parlons:session:"));
  expect(sessions.length).toBeLessThanOrEqual(1);
  return sessions[0];
}

describe("the learner's feed", () => {
  it("is the caller's own: made, read and revoked signed in only", async () => {
    for (const method of ["GET", "POST", "DELETE"] as const) {
      expect((await t.request({ method, url: "/api/v1/podcast/feed" })).statusCode).toBe(401);
    }
    const learner = await t.createUser();
    const none = await t.request({ method: "GET", url: "/api/v1/podcast/feed", token: learner.token });
    expect(none.json().data.feed).toEqual({ active: false, created_at: null, rotated_at: null, url: null });
  });

  it("keeps only a hash of the secret, and shows the URL once", async () => {
    const learner = await learnerWithFeed();
    const token = learner.url.split("/").pop() as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [row] = await t.database.db.select().from(podcastFeeds).where(eq(podcastFeeds.userId, learner.id));
    expect(row?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(token);
    const status = await t.request({ method: "GET", url: "/api/v1/podcast/feed", token: learner.token });
    expect(status.json().data.feed).toMatchObject({ active: true, url: null });
    // nor does a log line: the secret and the episodes' signatures are scrubbed
    expect(scrubUrl(`/api/v1/podcast/feed/${token}?lang=en`)).toBe("/api/v1/podcast/feed/[redacted]?lang=en");
    expect(scrubUrl("/api/v1/podcast/items/f/l/audio.mp3?sig=abc")).toBe(
      "/api/v1/podcast/items/f/l/audio.mp3?sig=[redacted]",
    );
  });

  it("is valid RSS 2.0 with the iTunes and Podcasting 2.0 tags, listing the lessons that open for its owner", async () => {
    const learner = await learnerWithFeed();
    const episodes = await episodesOf(learner.url);
    // a free learner: the free lesson only, never the premium one
    expect(episodes.map((e) => e.guid)).toEqual([`parlons:lesson:${fx.free.id}`]);
    expect(episodes[0]?.length).toBe(toneMp3().length);
    expect(episodes[0]?.title).toBe("Espagnol pour débutants · Bonjour");
    const english = await episodesOf(`${learner.url}?lang=en`);
    expect(english[0]?.title).toBe("Spanish for beginners · Hello");
    // a learner who started no course has an empty but valid feed
    const idle = await t.createUser();
    const made = await t.request({ method: "POST", url: "/api/v1/podcast/feed", token: idle.token });
    expect(await episodesOf(made.json().data.feed.url)).toEqual([]);
  });

  it("serves each episode's audio, transcript and chapters from its signed URL, without cookie or token", async () => {
    const learner = await learnerWithFeed();
    const [episode] = await episodesOf(learner.url);
    if (!episode) throw new Error("no episode");
    const audio = await get(episode.audio);
    expect(audio.statusCode).toBe(200);
    expect(audio.headers["content-type"]).toBe("audio/mpeg");
    expect(audio.rawPayload.equals(toneMp3())).toBe(true);
    const head = await t.request({ method: "HEAD", url: local(episode.audio) });
    expect(head.statusCode).toBe(200);
    expect(Number(head.headers["content-length"])).toBe(episode.length);
    const range = await get(episode.audio, { range: "bytes=0-99" });
    expect(range.statusCode).toBe(206);
    expect(range.rawPayload.length).toBe(100);

    const vtt = await get(episode.transcript);
    expect(vtt.statusCode).toBe(200);
    expect(vtt.headers["content-type"]).toBe("text/vtt; charset=utf-8");
    expect(vtt.body).toBe(
      "WEBVTT\n\n1\n00:00:00.000 --> 00:00:02.500\nHola, ¿qué tal?\n<lang fr>Phrase 0</lang>\n\n" +
        "2\n00:00:03.000 --> 00:00:05.500\nMuy bien, gracias.\n<lang fr>Phrase 1</lang>\n\n" +
        "3\n00:00:06.000 --> 00:00:08.500\nHasta luego &amp; adiós &lt;3\n<lang fr>Phrase 2</lang>\n\n",
    );
    const chapters = await get(episode.chapters);
    expect(chapters.headers["content-type"]).toBe("application/json+chapters; charset=utf-8");
    expect(JSON.parse(chapters.body)).toEqual({
      version: "1.2.0",
      title: "Bonjour",
      chapters: LINES.map((title, i) => ({ startTime: i * 3, endTime: i * 3 + 2.5, title })),
    });
    const again = await get(episode.transcript, { "if-none-match": vtt.headers.etag as string });
    expect(again.statusCode).toBe(304);
  });

  it("grants nothing beyond its own episodes: a signature is bound to its feed, file and lesson", async () => {
    const a = await learnerWithFeed();
    const b = await learnerWithFeed();
    const [ofA] = await episodesOf(a.url);
    const [ofB] = await episodesOf(b.url);
    if (!ofA || !ofB) throw new Error("no episode");
    const sigOf = (url: string) => new URL(url).searchParams.get("sig") as string;
    const feedOf = (url: string) => new URL(url).pathname.split("/")[5] as string;
    // A's signature on B's feed, or on another file, or on the premium lesson: not found
    expect((await get(ofA.audio.replace(feedOf(ofA.audio), feedOf(ofB.audio)))).statusCode).toBe(404);
    expect((await get(ofA.audio.replace("audio.mp3", "transcript.vtt"))).statusCode).toBe(404);
    expect((await get(ofA.audio.replace(fx.free.id, fx.paid.id))).statusCode).toBe(404);
    expect((await get(ofA.audio.replace(sigOf(ofA.audio), sigOf(ofB.audio)))).statusCode).toBe(404);
    expect((await get(`${PUBLIC}/api/v1/podcast/feed/${"x".repeat(43)}`)).statusCode).toBe(404);
  });

  it("asks the entitlement rule at every fetch: a plan that ends takes its premium episodes out, audio too", async () => {
    const learner = await learnerWithFeed({ premium: true });
    const episodes = await episodesOf(learner.url);
    expect(episodes.map((e) => e.guid).sort()).toEqual(
      [`parlons:lesson:${fx.free.id}`, `parlons:lesson:${fx.paid.id}`].sort(),
    );
    const paid = episodes.find((e) => e.guid.endsWith(fx.paid.id));
    if (!paid) throw new Error("no paid episode");
    expect((await get(paid.audio)).statusCode).toBe(200);

    await t.database.db
      .update(customerPlans)
      .set({ status: "CANCELLED", accessUntil: new Date(Date.now() - 1000) })
      .where(eq(customerPlans.userId, learner.id));
    t.app.deps.changes.publish(`user:${learner.id}`);
    expect((await episodesOf(learner.url)).map((e) => e.guid)).toEqual([`parlons:lesson:${fx.free.id}`]);
    const refused = await get(paid.audio);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe("PREMIUM_REQUIRED");
    expect((await get(paid.transcript)).statusCode).toBe(403);
    // the free episode still plays
    expect((await get(episodes.find((e) => e !== paid)?.audio as string)).statusCode).toBe(200);
  });

  it("rotates: the old URL and its episodes stop working, the new ones work", async () => {
    const learner = await learnerWithFeed();
    const [before] = await episodesOf(learner.url);
    const rotated = await t.request({ method: "POST", url: "/api/v1/podcast/feed", token: learner.token });
    const url = rotated.json().data.feed.url as string;
    expect(url).not.toBe(learner.url);
    expect((await get(learner.url)).statusCode).toBe(404);
    expect((await get(before?.audio as string)).statusCode).toBe(404);
    const [after] = await episodesOf(url);
    expect(after?.guid).toBe(before?.guid);
    expect((await get(after?.audio as string)).statusCode).toBe(200);
  });

  it("revokes: the feed and its episodes answer 404, and a disabled account's feed is gone too", async () => {
    const learner = await learnerWithFeed();
    const [episode] = await episodesOf(learner.url);
    const revoked = await t.request({ method: "DELETE", url: "/api/v1/podcast/feed", token: learner.token });
    expect(revoked.json().data.feed.active).toBe(false);
    expect((await get(learner.url)).statusCode).toBe(404);
    expect((await get(episode?.audio as string)).statusCode).toBe(404);
    expect((await get(episode?.chapters as string)).statusCode).toBe(404);

    const other = await learnerWithFeed();
    await t.database.db.update(users).set({ status: "DISABLED" }).where(eq(users.id, other.id));
    expect((await get(other.url)).statusCode).toBe(404);
  });

  it("lists the day's hands-free session once made in the background, its MP3 behind a URL signed for the feed, the day and the language", async () => {
    const learner = await learnerWithFeed();
    // the feed never waits for the render: the first fetch starts it, the episode comes when ready
    const started = Date.now();
    expect(await sessionOf(learner.url)).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(5_000);
    await t.app.deps.services.handsFreeAudio.settled();
    const session = await sessionOf(learner.url);
    if (!session) throw new Error("no daily session in the feed");
    // the same file for the day: the feed names it again
    expect((await sessionOf(learner.url))?.guid).toBe(session.guid);
    expect(session.audio).toMatch(
      /\/api\/v1\/podcast\/sessions\/[0-9a-f-]{36}\/\d{4}-\d{2}-\d{2}\/audio\.mp3\?sig=/,
    );
    const audio = await get(session.audio);
    expect(audio.statusCode).toBe(200);
    expect(audio.headers["content-type"]).toBe("audio/mpeg");
    // the enclosure's length and duration are the file's
    expect(audio.rawPayload.length).toBe(session.length);
    expect(Math.abs(session.duration - (await decodeAudio(audio.rawPayload)).duration)).toBeLessThan(1);
    // the three new lines echoed: line, pause (1.2 times the line), line; a second between items
    const runs = await runsOf(audio.rawPayload, []);
    expect(runs.map((r) => (r.type === "silence" ? Math.round(r.seconds * 10) / 10 : "sound"))).toEqual([
      "sound",
      3,
      "sound",
      1,
      "sound",
      3,
      "sound",
      1,
      "sound",
      3,
      "sound",
    ]);
    // a signature is bound to its feed, day and language
    expect((await get(session.audio.replace(/sig=[^&]+/, "sig=forged"))).statusCode).toBe(404);
    expect((await get(`${session.audio}&lang=en`)).statusCode).toBe(404);
    expect((await get(session.audio.replace(/\/\d{4}-\d{2}-\d{2}\//, "/2020-01-01/"))).statusCode).toBe(404);
    // rotating the feed ends the session's URL too
    await t.request({ method: "POST", url: "/api/v1/podcast/feed", token: learner.token });
    expect((await get(session.audio)).statusCode).toBe(404);
    // the other tests' feeds started renders too: one at a time, waited for here
  }, 180_000);

  it("has no session episode when nothing is to be practised", async () => {
    const learner = await t.createUser();
    const made = await t.request({ method: "POST", url: "/api/v1/podcast/feed", token: learner.token });
    expect(await sessionOf(made.json().data.feed.url as string)).toBeUndefined();
  });
});
