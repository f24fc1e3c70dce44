import { expect, test } from "../support/fixtures";
import { findInMail } from "../support/mail";
import { reminderDueNow } from "../support/push";
import { apiToken, createLearner, signIn } from "../support/session";

test("the dashboard shows today's goal reached and a one-day streak", async ({ page, request }) => {
  const learner = await createLearner(request, "habit");
  const token = await apiToken(request, learner);
  const headers = { authorization: `Bearer ${token}` };
  const goal = await request.put("/api/v1/habit/settings", { headers, data: { goal_minutes: 1 } });
  expect(goal.ok(), await goal.text()).toBe(true);
  const minute = new Date(Math.floor(Date.now() / 60_000) * 60_000).toISOString();
  const lesson = "0190a0a0-0000-7000-8000-00000000e2e1";
  const listened = await request.post("/api/v1/habit/listening", {
    headers,
    data: { items: [{ lesson_id: lesson, minute, seconds: 60 }] },
  });
  expect(listened.ok(), await listened.text()).toBe(true);

  await signIn(page, learner);
  const card = page.getByTestId("habit-card");
  await expect(card.getByTestId("habit-streak")).toContainText("1 jour");
  await expect(card.getByTestId("habit-today")).toContainText("Objectif atteint");
  await expect(card.getByRole("spinbutton", { name: "Objectif quotidien (minutes)" })).toHaveValue("1");
  await card.screenshot({ path: test.info().outputPath("habit-card.png") });
});

test("the unsubscribe link of a study reminder works without signing in", async ({ page, request }) => {
  const learner = await createLearner(request, "unsub");
  const token = await apiToken(request, learner);
  await reminderDueNow(request, token);
  const oneClick = await findInMail(learner.email, /List-Unsubscribe: <[^>]+>/, 20_000);
  const link = await findInMail(learner.email, /http:\/\/[^\s"<>]+\/unsubscribe\/[\w.-]+/);

  // the page opened from the mail, signed out: confirm, then subscribe again
  await page.goto(new URL(link).pathname);
  await expect(page.getByText(/Ne plus envoyer les rappels d'étude à u•••@e2e\.test/)).toBeVisible();
  await page.getByTestId("unsubscribe-confirm").click();
  await expect(page.getByTestId("unsubscribe-done")).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("unsubscribed.png") });
  await page.getByTestId("unsubscribe-resubscribe").click();
  await expect(page.getByTestId("unsubscribe-resubscribed")).toBeVisible();

  // a mail client's one-click POST (RFC 8058) to the header's URL, without any credential
  const url = oneClick.slice("List-Unsubscribe: <".length, -1);
  const post = await request.post(url, {
    headers: { "content-type": "application/x-www-form-urlencoded" },
    data: "List-Unsubscribe=One-Click",
  });
  expect(post.status(), await post.text()).toBe(200);
  expect((await post.json()).data).toMatchObject({ kind: "study_reminders", subscribed: false });
});
