import type { APIRequestContext, Page } from "@playwright/test";
import { violations } from "../support/axe";
import { ADMIN } from "../support/env";
import { expect, test } from "../support/fixtures";
import { otherLanguageTexts, settledText } from "../support/languages";
import { apiToken, createLearner, signIn } from "../support/session";

/**
 * Every page × language (fr, en, es) × {1280×800, 390×844} × {visitor, learner, staff}: no text of another
 * language's catalogue (issue 14, part 1), axe finds no serious or critical violation, and no
 * page scrolls sideways at 390 or at 360 px. One page load per page
 * and language; the sizes are taken by resizing the loaded page (the layout follows the viewport),
 * which keeps some three hundred checks within a few minutes.
 */
const LOCALES = ["", "/en", "/es"];
const SIZES = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];
const NARROWEST = { width: 360, height: 740 };
/** Every page of every role in every language at both sizes (issue 14, part 4). */
const sizesFor = (_lang: string, _who: string) => SIZES;
const DEMO_SLUG = "anglais-pour-debutants";

interface Ids {
  courseId: string;
  lessonId: string;
  longId: string;
  eventId: string;
}

async function json<T>(request: APIRequestContext, url: string, token?: string): Promise<T> {
  const res = await request.get(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  expect(res.ok(), `${url}: ${res.status()}`).toBe(true);
  return ((await res.json()) as { data: T }).data;
}

/**
 * The demo course and its first lesson, an upcoming event, and a course whose title has words wider
 * than a phone: made once per worker (each new course pushes the seeded ones off the catalogue's
 * first page, which other tests read).
 */
let prepared: Promise<Ids> | undefined;
function ids(request: APIRequestContext): Promise<Ids> {
  prepared ??= prepare(request);
  return prepared;
}

async function prepare(request: APIRequestContext): Promise<Ids> {
  const { course } = await json<{ course: { id: string } }>(request, `/api/v1/courses/single/${DEMO_SLUG}`);
  const courseId = course.id;
  const { lessons } = await json<{ lessons: { id: string }[] }>(
    request,
    `/api/v1/courses/${courseId}/lessons`,
  );
  const headers = { authorization: `Bearer ${await apiToken(request, ADMIN)}` };
  const start = new Date(Date.now() + 3 * 24 * 3600_000);
  const event = await request.post("/api/v1/events", {
    headers,
    data: {
      title_fr: `Club d'écoute ${Date.now()}`,
      title_en: `Listening club ${Date.now()}`,
      description_fr: "On écoute ensemble.",
      description_en: "We listen together.",
      kind: "online",
      online_url: "https://meet.example.com/matrix",
      starts_at: start.toISOString(),
      ends_at: new Date(start.getTime() + 3600_000).toISOString(),
      capacity: 10,
    },
  });
  expect(event.status(), await event.text()).toBe(201);
  const long = await request.post("/api/v1/courses", {
    headers,
    data: {
      title_fr: `Donaudampfschifffahrtsgesellschaftskapitän ${Date.now()}`,
      title_en: "Rindfleischetikettierungsüberwachungsaufgabenübertragungsgesetz",
      target_language: "de",
      level: "B2",
      active: true,
    },
  });
  expect(long.status()).toBe(201);
  return {
    courseId,
    lessonId: lessons[0]?.id ?? "",
    longId: ((await long.json()) as { data: { course: { id: string } } }).data.course.id,
    eventId: ((await event.json()) as { data: { event: { id: string } } }).data.event.id,
  };
}

const publicPaths = (ids: Ids) => [
  "/",
  "/courses",
  `/courses/${ids.courseId}`,
  `/courses/${ids.longId}`,
  "/pricing",
  "/events",
  `/events/${ids.eventId}`,
  "/faqs",
  "/contact",
  "/legal/legal-notice",
  "/legal/privacy",
  "/legal/terms",
  "/legal/cookies",
  "/auth/login",
  "/forgot-password",
  "/reset-password/not-a-token",
  "/nimporte-quoi",
  "/c/ZZZZ-ZZZZ",
];
const learnerPaths = (ids: Ids) => [
  "/dashboard",
  "/profile",
  "/change-password",
  "/billing",
  "/billing/upgrade-payment",
  "/review",
  "/practice",
  "/practice/hands-free",
  "/downloads",
  `/courses/${ids.courseId}/lessons`,
  `/courses/${ids.longId}/lessons`,
  `/courses/${ids.courseId}/lessons/${ids.lessonId}`,
];
const staffPaths = (ids: Ids) => [
  "/dashboard",
  "/plans",
  "/setting",
  "/User",
  "/User/create",
  "/User/customers",
  "/User/roles",
  "/mail/send",
  "/mail/templates",
  "/events/manage",
  "/configs",
  "/audit",
  "/sales",
  "/sales/report",
  "/coupons",
  "/data-requests",
  "/analytics",
  "/certificates",
  "/courses/create",
  `/courses/${ids.courseId}/lessons`,
];

/** How far the page can scroll sideways (0 when it fits the viewport). */
const sidewaysOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/**
 * The page has its data: loaded, and no skeleton, spinner or busy region left (quicker than
 * waiting for the network to stay idle half a second, which every one of some ninety loads paid).
 */
async function loaded(page: Page): Promise<void> {
  await page.waitForLoadState("load");
  await page.waitForFunction(
    () =>
      document.querySelector("#main, main") !== null &&
      document.querySelector('.ant-skeleton, .ant-spin-spinning, [aria-busy="true"], .full-page-spinner') ===
        null,
  );
  await settled(page);
}

/** Two animation frames: the layout and the components listening to the viewport have followed it. */
const settled = (page: Page) =>
  page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );

async function checkAll(page: Page, prefix: string, paths: string[], who: string): Promise<string[]> {
  const found: string[] = [];
  const lang = prefix ? prefix.slice(1) : "fr";
  const foreign = otherLanguageTexts(lang);
  expect(foreign.length).toBeGreaterThan(100);
  // each problem is printed when found too: a run cut short by its timeout still names them
  const problems = {
    push(problem: string) {
      console.log(`page matrix: ${problem}`);
      found.push(problem);
    },
  };
  for (const path of paths) {
    const url = path === "/" ? prefix || "/" : `${prefix}${path}`;
    await page.setViewportSize(SIZES[0] as (typeof SIZES)[number]);
    await page.goto(url);
    await loaded(page);
    // no mixed languages: no text of another language's catalogue on the page
    const text = await settledText(page);
    for (const t of foreign) if (text.includes(t)) problems.push(`${who} ${url}: «${t}» is not in ${lang}`);
    const sizes = sizesFor(lang, who);
    if (sizes.length === 0) continue;
    for (const size of sizes) {
      await page.setViewportSize(size);
      await settled(page);
      for (const v of await violations(page)) problems.push(`${who} ${url} ${size.width}px: ${v}`);
      if (size.width < 768) {
        const overflow = await sidewaysOverflow(page);
        if (overflow > 0) problems.push(`${who} ${url} ${size.width}px: scrolls sideways by ${overflow}px`);
      }
    }
    await page.setViewportSize(NARROWEST);
    await settled(page);
    const overflow = await sidewaysOverflow(page);
    if (overflow > 0) problems.push(`${who} ${url} ${NARROWEST.width}px: scrolls sideways by ${overflow}px`);
  }
  return found;
}

// some fifteen pages, each loaded once and checked four times; staff pages are the heaviest
test.describe.configure({ timeout: 300_000 });

for (const prefix of LOCALES) {
  const lang = prefix ? prefix.slice(1) : "fr";
  test(`every public page in ${lang}: its language only, axe clean, no sideways scroll`, async ({ page }) => {
    const found = await ids(page.request);
    expect(await checkAll(page, prefix, publicPaths(found), "visitor")).toEqual([]);
  });

  test(`every learner page in ${lang}: its language only, axe clean, no sideways scroll`, async ({
    page,
  }) => {
    const found = await ids(page.request);
    await signIn(page, await createLearner(page.request, "matrix"));
    expect(await checkAll(page, prefix, learnerPaths(found), "learner")).toEqual([]);
  });

  test(`every staff page in ${lang}: its language only, axe clean, no sideways scroll`, async ({ page }) => {
    const found = await ids(page.request);
    await signIn(page, ADMIN);
    expect(await checkAll(page, prefix, staffPaths(found), "staff")).toEqual([]);
  });
}
