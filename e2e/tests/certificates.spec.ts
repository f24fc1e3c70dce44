import { ADMIN } from "../support/env";
import { expect, test } from "../support/fixtures";
import { apiToken, createLearner, signIn } from "../support/session";

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

test("a certificate's public verification page: name, course, date and validity without signing in; an unknown code is a 404", async ({
  page,
  request,
}) => {
  // a one-lesson course, finished by a learner through the API: the certificate is issued
  const admin = await apiToken(request, ADMIN);
  const stamp = Date.now();
  const course = await request.post("/api/v1/courses", {
    headers: bearer(admin),
    data: {
      title_fr: `Italien express ${stamp}`,
      title_en: `Italian express ${stamp}`,
      target_language: "it",
      level: "A1",
      active: true,
    },
  });
  expect(course.status(), await course.text()).toBe(201);
  const courseId = (await course.json()).data.course.id as string;
  const lesson = await request.post(`/api/v1/courses/${courseId}/lessons`, {
    headers: bearer(admin),
    data: { title_fr: "Ciao", title_en: "Ciao", free: true },
  });
  expect(lesson.status(), await lesson.text()).toBe(201);
  const lessonId = (await lesson.json()).data.lesson.id as string;

  const learner = await createLearner(request, "certified");
  const token = await apiToken(request, learner);
  const me = await request.get("/api/v1/user/me", { headers: bearer(token) });
  const userId = (await me.json()).data.data.id as string;
  const named = await request.put(`/api/v1/user/profile/${userId}`, {
    headers: bearer(token),
    data: { full_name: "Margot Durand" },
  });
  expect(named.ok(), await named.text()).toBe(true);
  const done = await request.post(`/api/v1/courses/${courseId}/lessons/done-customer`, {
    headers: bearer(token),
    data: { lesson_id: lessonId, done: true },
  });
  expect(done.ok(), await done.text()).toBe(true);
  const code = (await done.json()).data.certificate.code as string;

  // anyone (this page is not signed in) checks the code at its short URL
  await page.goto(`/c/${code}`);
  const certificate = page.getByTestId("certificate");
  await expect(certificate).toBeVisible();
  await expect(page.getByTestId("certificate-name")).toHaveText("Margot Durand");
  await expect(page.getByTestId("certificate-course")).toHaveText(`Italien express ${stamp}`);
  await expect(page.getByTestId("certificate-code")).toHaveText(code);
  await expect(page.getByTestId("certificate-status")).toHaveText("Valide");
  await expect(certificate).not.toContainText(learner.email);

  // the learner, on the lesson that finished the course, is told and led to the certificate
  await signIn(page, learner);
  await page.goto(`/courses/${courseId}/lessons/${lessonId}`);
  const earned = page.getByTestId("lesson-certificate");
  await expect(earned).toContainText("Cours terminé : votre certificat est prêt.");
  await earned.getByRole("link", { name: "Voir mon certificat" }).click();
  await expect(page).toHaveURL(/\/certificates\/[0-9a-f-]+$/);
  await page.context().clearCookies();

  // a code nobody holds: the server says 404 and the page says so
  const unknown = await page.goto("/en/c/ZZZZ-ZZZZ");
  expect(unknown?.status()).toBe(404);
  await expect(page.getByTestId("certificate-not-found")).toContainText("No certificate has this code");
});
