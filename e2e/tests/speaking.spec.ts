import { expect, test } from "../support/fixtures";
import { fakeMicrophone } from "../support/microphone";
import { apiToken, createLearner, signIn } from "../support/session";

// Chromium's fake microphone (a beep) and no permission prompt, for this file only
test.use({ launchOptions: fakeMicrophone() });
test.describe.configure({ timeout: 90_000 });

test("repeat after me: the line plays, the learner is recorded, both play back with their waveforms, and the recording can be kept", async ({
  page,
  request,
}) => {
  const learner = await createLearner(request, "speaker");
  const course = await request.get("/api/v1/courses/single/anglais-pour-debutants");
  const courseId = ((await course.json()) as { data: { course: { id: string } } }).data.course.id;
  const list = await request.get(`/api/v1/courses/${courseId}/lessons`, {
    headers: { authorization: `Bearer ${await apiToken(request, learner)}` },
  });
  const lessonId = ((await list.json()) as { data: { lessons: { id: string }[] } }).data.lessons[0]?.id;
  await signIn(page, learner);
  await page.goto(`/courses/${courseId}/lessons/${lessonId}`);

  await page.getByTestId("transcript-line").nth(0).getByTestId("speak-line").click();
  const dialog = page.getByRole("dialog", { name: "Répéter après moi" });
  const status = dialog.getByTestId("speak-status");
  await expect(dialog.getByTestId("wave-original")).toHaveAttribute("data-drawn", "true");
  await dialog.getByTestId("speak-start").click();
  // the line plays first, then the microphone records
  await expect(status).toHaveAttribute("data-phase", "recording", { timeout: 20_000 });
  await expect(status).toContainText("Enregistrement en cours");
  await page.waitForTimeout(600);
  await dialog.getByTestId("speak-stop").click();
  // the line, then the recording, play one after the other; the recording's waveform is drawn
  await expect(status).toHaveAttribute("data-phase", "comparing");
  await expect(dialog.getByTestId("wave-recording")).toHaveAttribute("data-drawn", "true");
  await expect(status).toHaveAttribute("data-phase", "ready", { timeout: 20_000 });

  await dialog.getByTestId("speak-keep").click();
  await expect(dialog.getByTestId("speak-kept")).toContainText("Gardé sur votre compte");
});
