import type { APIRequestContext } from "@playwright/test";
import { violations } from "../support/axe";
import { expect, test } from "../support/fixtures";
import { controlled } from "../support/offline";
import { playForASecond } from "../support/player";
import { apiToken, createLearner, signIn } from "../support/session";

/** The installable app and offline lessons, on a phone, with the service worker running. */
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, serviceWorkers: "allow" });

test("installable: a manifest per language, icons, and a service worker that controls the page", async ({
  page,
  request,
}) => {
  await page.goto("/");
  const href = await page.locator('link[rel="manifest"]').getAttribute("href");
  expect(href).toBe("/manifest.webmanifest");

  for (const [url, lang, start] of [
    ["/manifest.webmanifest", "fr", "/"],
    ["/manifest.en.webmanifest", "en", "/en"],
    ["/manifest.es.webmanifest", "es", "/es"],
  ] as const) {
    const res = await request.get(url);
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toContain("application/manifest+json");
    const manifest = (await res.json()) as {
      name: string;
      short_name: string;
      lang: string;
      start_url: string;
      display: string;
      theme_color: string;
      icons: { src: string; sizes: string; purpose: string }[];
    };
    expect(manifest).toMatchObject({ short_name: "Parlons", lang, start_url: start, display: "standalone" });
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    for (const size of ["192x192", "512x512"]) {
      for (const purpose of ["any", "maskable"]) {
        const icon = manifest.icons.find((i) => i.sizes === size && i.purpose === purpose);
        expect(icon, `${size} ${purpose}`).toBeTruthy();
        const png = await request.get(icon?.src ?? "");
        expect(png.headers()["content-type"]).toBe("image/png");
      }
    }
  }

  // the worker's script is revalidated at every check, never cached for a year
  const sw = await request.get("/sw.js");
  expect(sw.status()).toBe(200);
  expect(sw.headers()["content-type"]).toContain("javascript");
  expect(sw.headers()["cache-control"]).toBe("no-cache");

  await controlled(page);
  // the English pages link the English manifest
  await page.goto("/en");
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute("href", "/manifest.en.webmanifest");
});

test("offline: app pages get the precached shell, the API and server files are never answered by it", async ({
  page,
  context,
}) => {
  await page.goto("/");
  await controlled(page);
  await context.setOffline(true);
  try {
    // an app page opens from the shell, and says the network is gone
    await page.goto("/courses");
    await expect(page.getByTestId("offline-banner")).toBeVisible();
    await expect(page.getByTestId("offline-banner")).toContainText("hors ligne");
    expect(await violations(page)).toEqual([]);
    // the API is not answered with the shell
    const api = await page.evaluate(() =>
      fetch("/api/health").then(
        (r) => r.status,
        () => "network error",
      ),
    );
    expect(api).toBe("network error");
  } finally {
    await context.setOffline(false);
  }
  await expect(page.getByTestId("offline-banner")).toHaveCount(0);
});

interface Progress {
  done: boolean;
  play_count: number;
  last_position: number;
}

/** The demo course's first lesson (free) and its progress as the server has it for this learner. */
/** The demo course's free lesson (other specs add courses before it in the catalogue). */
async function firstFreeLesson(request: APIRequestContext, token: string) {
  const course = (await (await request.get("/api/v1/courses/single/anglais-pour-debutants")).json()) as {
    data: { course: { id: string } };
  };
  const courseId = course.data.course.id;
  const progress = async () => {
    const res = await request.get(`/api/v1/courses/${courseId}/lessons`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const lessons = (
      (await res.json()) as { data: { lessons: { id: string; free: boolean; progress: Progress | null }[] } }
    ).data.lessons;
    return lessons.find((l) => l.free) ?? null;
  };
  const lesson = await progress();
  return { courseId, lessonId: lesson?.id ?? "", progress: async () => (await progress())?.progress ?? null };
}

test("a lesson downloaded plays with the network off, and progress made offline arrives once", async ({
  page,
  context,
}) => {
  // sign-up by mail, precache, download, offline round trip: more than the default on a busy machine
  test.setTimeout(90_000);
  const learner = await createLearner(page.request, "offline");
  const token = await apiToken(page.request, learner);
  const { courseId, lessonId, progress } = await firstFreeLesson(page.request, token);
  await signIn(page, learner);
  await controlled(page);

  // download the lesson from its page: progress, then "available offline" and the storage used
  await page.goto(`/courses/${courseId}/lessons/${lessonId}`);
  await page.getByTestId("download-lesson").click();
  await expect(page.getByTestId("download-done")).toBeVisible();
  const kept = await page.evaluate(async () => (await (await caches.open("parlons-audio-v1")).keys()).length);
  expect(kept).toBe(1);

  await context.setOffline(true);
  try {
    // the lesson page opens again without a network, from the shell and the kept reads
    await page.reload();
    await expect(page.getByTestId("offline-banner")).toBeVisible();
    await expect(page.getByTestId("player")).toBeVisible();
    await expect(page.getByTestId("transcript")).toContainText("My name is Anna.");
    // and plays: the audio's Range requests are answered from the download
    await playForASecond(page);
    // progress made offline: played (on the first play), then marked done
    await page.getByTestId("mark-done").click();
    await expect(page.getByTestId("mark-done")).toHaveAttribute("data-done", "true");
    const queued = await page.evaluate(
      () =>
        new Promise<number>((resolve, reject) => {
          const open = indexedDB.open("parlons-offline");
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const count = open.result.transaction("outbox").objectStore("outbox").count();
            count.onsuccess = () => resolve(count.result);
          };
        }),
    );
    expect(queued).toBeGreaterThanOrEqual(2);
    // nothing reached the server yet
    expect(await progress()).toBeNull();
  } finally {
    await context.setOffline(false);
  }

  // back online: the queue is sent, each call applied once
  await expect.poll(async () => (await progress())?.done, { timeout: 15_000 }).toBe(true);
  expect((await progress())?.play_count).toBe(1);
  // another start (which sends the queue again if anything were left) changes nothing
  await page.reload();
  await expect(page.getByTestId("player")).toBeVisible();
  await expect(page.getByTestId("offline-banner")).toHaveCount(0);
  await page.waitForTimeout(1000);
  expect((await progress())?.play_count).toBe(1);
});

test("downloads page: what is kept, storage used, delete; a course downloads whole", async ({ page }) => {
  test.setTimeout(90_000);
  const learner = await createLearner(page.request, "downloads");
  const token = await apiToken(page.request, learner);
  const { courseId, lessonId } = await firstFreeLesson(page.request, token);
  await signIn(page, learner);
  await controlled(page);

  // online, a lesson not downloaded plays through the worker (its Range requests go to the network)
  await page.goto(`/courses/${courseId}/lessons/${lessonId}`);
  await page.getByTestId("player-play").click();
  await expect
    .poll(
      () => page.locator("[data-testid=player] audio").evaluate((el: HTMLAudioElement) => el.currentTime),
      {
        timeout: 15_000,
      },
    )
    .toBeGreaterThan(1);
  await page.getByTestId("player-play").click();

  await page.goto(`/courses/${courseId}`);
  await page.getByTestId("download-course").click();
  await expect(page.getByTestId("download-done")).toBeVisible();

  // reachable from the settings drawer
  await page.goto("/downloads");
  await expect(page.getByRole("heading", { name: "Téléchargements" })).toBeVisible();
  await expect(page.getByTestId("storage-used")).toContainText("Espace utilisé");
  await expect(page.getByTestId("download-course-card")).toHaveCount(1);
  expect(await violations(page)).toEqual([]);
  const items = page.getByTestId("download-delete");
  const before = await items.count();
  expect(before).toBeGreaterThan(0);
  await items.first().click();
  await expect(items).toHaveCount(before - 1);
  if (before > 1) {
    await page.getByRole("button", { name: "Tout supprimer" }).click();
    await page
      .getByRole("dialog")
      .getByRole("button", { name: /OK|Supprimer|Confirmer/ })
      .click();
  }
  await expect(page.getByTestId("downloads-empty")).toBeVisible();
  const left = await page.evaluate(async () => (await (await caches.open("parlons-audio-v1")).keys()).length);
  expect(left).toBe(0);
});
