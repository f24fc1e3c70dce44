import { ownCourse } from "../support/course";
import { ADMIN } from "../support/env";
import { expect, test } from "../support/fixtures";
import { apiToken, createLearner, signIn } from "../support/session";

/**
 * What a plan sells and how a lesson reads (issue 24, part 5): the pricing page lists what the free
 * plan opens and, on a paid plan, only what it adds; a long transcript uses a desktop's height.
 */
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

test("the pricing page lists what the free plan opens, and on a paid plan only what it adds (FR and EN)", async ({
  page,
  request,
}) => {
  const cards = page.getByTestId("pricing-plan");
  const free = cards.filter({ hasNot: page.locator(".plan-card__crown") }).first();
  const paid = cards.filter({ has: page.locator(".plan-card__crown") });

  await page.goto("/pricing");
  await expect(free).toContainText("Les leçons gratuites de chaque cours");
  await expect(free).toContainText("Transcriptions et traductions de chaque phrase");
  await expect(free).toContainText("Mode « répétez après moi »");
  await expect(paid.first()).toBeVisible();
  for (const card of await paid.all()) {
    await expect(card.getByTestId("plan-beyond")).toContainText(
      "Tout ce que donne la formule Découverte, et :",
    );
    await expect(card).not.toContainText(/répétez après moi|Transcriptions/i);
  }
  const everyCourse = paid.filter({ hasText: "Toutes les leçons de tous les cours" }).first();
  await expect(everyCourse).toContainText("Toutes les leçons téléchargées pour l'écoute hors ligne");
  await expect(everyCourse.getByText("Toutes les leçons de tous les cours", { exact: true })).toHaveCount(1);

  await page.goto("/en/pricing");
  await expect(free).toContainText("Repeat-after-me mode");
  await expect(free).toContainText("Transcripts and translations of every line");
  await expect(paid.first().getByTestId("plan-beyond")).toContainText("Everything in Discovery, plus:");
  for (const card of await paid.all()) await expect(card).not.toContainText(/repeat-after-me|transcripts/i);
  // events for subscribers are sold only while one is ahead (the API derives it from the events)
  const everyCourseEn = paid.filter({ hasText: "All lessons of all courses" }).first();
  await expect(everyCourseEn).toContainText("Every lesson downloaded for offline listening");
  await expect(everyCourseEn).not.toContainText("Events for subscribers only");
  const admin = { authorization: `Bearer ${await apiToken(request, ADMIN)}` };
  const start = Date.now() + 2 * 24 * 3600_000;
  const created = await request.post("/api/v1/events", {
    headers: admin,
    data: {
      title_fr: "Club des abonnés",
      title_en: "Subscribers' club",
      kind: "online",
      online_url: "https://meet.example.com/subscribers",
      starts_at: new Date(start).toISOString(),
      ends_at: new Date(start + 3600_000).toISOString(),
      capacity: 10,
      premium_only: true,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const eventId = (await created.json()).data.event.id as string;
  try {
    await page.reload();
    await expect(everyCourseEn).toContainText("Events for subscribers only");
  } finally {
    await request.delete(`/api/v1/events/${eventId}?force=true`, { headers: admin });
  }
});

test.describe("on a desktop", () => {
  test.use({ viewport: { width: 1280, height: 860 }, hasTouch: false, isMobile: false });

  test("the transcript of a long lesson uses the screen's height, not five lines in a half-empty page", async ({
    page,
    request,
  }) => {
    const { courseId, lessonIds } = await ownCourse(
      request,
      "Trascrizione",
      [{ title: "Lunga", free: true }],
      {
        language: "it",
      },
    );
    const cues = Array.from({ length: 24 }, (_, i) => ({
      start: i * 0.4,
      end: i * 0.4 + 0.4,
      text: `Riga numero ${i + 1}.`,
      translation_fr: `Ligne numéro ${i + 1}.`,
    }));
    const put = await request.put(`/api/v1/courses/${courseId}/lessons/${lessonIds[0]}/cues`, {
      headers: { authorization: `Bearer ${await apiToken(request, ADMIN)}` },
      data: { cues },
    });
    expect(put.ok(), await put.text()).toBe(true);
    const learner = await createLearner(request, "transcript");
    await signIn(page, learner);
    await page.goto(`/courses/${courseId}/lessons/${lessonIds[0]}`);
    const transcript = page.getByTestId("transcript");
    await expect(transcript).toContainText("Riga numero 24.");
    const box = await transcript.boundingBox();
    expect(box?.height ?? 0).toBeGreaterThanOrEqual(0.6 * 860);
    // whole lines inside the box: far more than five
    const inside = await transcript.evaluate((list) => {
      const outer = list.getBoundingClientRect();
      return Array.from(list.querySelectorAll('[data-testid="transcript-line"]')).filter((line) => {
        const r = line.getBoundingClientRect();
        return r.top >= outer.top - 1 && r.bottom <= outer.bottom + 1;
      }).length;
    });
    expect(inside).toBeGreaterThanOrEqual(10);
  });
});
