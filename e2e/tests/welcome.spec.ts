import type { Page } from "@playwright/test";
import { ownCourse } from "../support/course";
import { expect, test } from "../support/fixtures";
import { linkFromMail } from "../support/mail";
import { apiToken, createLearner, signIn } from "../support/session";

/** A learner's first week on a phone: the welcome that starts them, a study day, review offline. */
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
// sign-up by mail, activation, the welcome, a lesson: more than the default on a loaded machine
test.describe.configure({ timeout: 240_000 });

const TEXTS = {
  fr: {
    prefix: "",
    signupDialog: "Créer un compte",
    email: "E-mail",
    password: "Mot de passe",
    pending: "suivez son lien",
    loginDialog: "Connexion",
    welcome: "Bienvenue",
    welcomeBack: "Content de vous revoir",
    language: "japonais",
    starting: "Je débute",
    goal: "5 min par jour",
    counted: "Journée d'étude comptée",
    streak: "1 jour",
  },
  en: {
    prefix: "/en",
    signupDialog: "Create an account",
    email: "Email",
    password: "Password",
    pending: "follow its link",
    loginDialog: "Log in",
    welcome: "Welcome",
    welcomeBack: "Good to see you again",
    language: "Japanese",
    starting: "I'm starting",
    goal: "5 min a day",
    counted: "Study day counted",
    streak: "1 day",
  },
} as const;

async function noHorizontalScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
}

for (const [lang, tx] of Object.entries(TEXTS)) {
  test(`${lang}: sign up, activate, the welcome, the first lesson, and a study day on the dashboard`, async ({
    page,
    request,
  }) => {
    // a course in a language of its own, so that the welcome offers it and recommends it
    await ownCourse(request, `Premiers mots ${lang}`, [{ title: "Konnichiwa", free: true }], {
      language: "ja",
    });
    const email = `welcome.${lang}.${Date.now()}@e2e.test`;
    const password = "Bonjour-2026!";
    await page.goto(`${tx.prefix}/`);
    await page.getByTestId("header-signup").click();
    const signup = page.getByRole("dialog", { name: tx.signupDialog });
    await signup.getByLabel(tx.email).fill(email);
    await signup.getByLabel(tx.password).fill(password);
    await signup.getByTestId("signup-submit").click();
    // an activation mail is required here: the modal says so, and what to do
    const success = page.getByTestId("signup-success");
    await expect(success).toHaveAttribute("data-status", "PENDING");
    await expect(success).toContainText(tx.pending);

    const link = await linkFromMail(email, /http:\/\/127\.0\.0\.1:\d+(?:\/en)?\/activate\/[\w-]+/);
    await page.goto(new URL(link).pathname);
    await expect(page.getByTestId("activate-success")).toBeVisible();
    await page.goto(`${tx.prefix}/`);
    await page.getByTestId("header-login").click();
    const login = page.getByRole("dialog", { name: tx.loginDialog });
    await login.getByLabel(tx.email).fill(email);
    await login.getByLabel(tx.password).fill(password);
    await login.getByTestId("login-submit").click();
    // signing in loads the app's shell: slow on a loaded machine
    await expect(page).toHaveURL(new RegExp(`${tx.prefix}/dashboard$`), { timeout: 30_000 });

    // a first visit: "welcome", never "welcome back", and the way to start
    await expect(page.getByTestId("dashboard-greeting")).toContainText(tx.welcome);
    await expect(page.getByTestId("welcome-card")).toBeVisible();
    await expect(page.getByText(tx.welcomeBack)).toHaveCount(0);
    await page.getByTestId("welcome-cta").click();
    await expect(page).toHaveURL(new RegExp(`${tx.prefix}/welcome$`));

    // the language (from the catalogue), the level, the goal, the reminder
    await page.getByTestId("welcome-languages").getByText(tx.language, { exact: true }).click();
    await noHorizontalScroll(page);
    await page.getByTestId("welcome-next").click();
    await page.getByTestId("welcome-levels").getByText(tx.starting).click();
    await page.getByTestId("welcome-next").click();
    await page.getByTestId("welcome-goals").getByText(tx.goal, { exact: true }).click();
    await page.getByTestId("welcome-next").click();
    await expect(page.getByTestId("welcome-remind")).toBeChecked();
    await page.getByTestId("welcome-next").click();

    // the course recommended, and its first lesson
    await expect(page.getByTestId("welcome-course")).toContainText("A1");
    await noHorizontalScroll(page);
    await page.getByTestId("welcome-start").click();
    await expect(page).toHaveURL(new RegExp(`${tx.prefix}/courses/[\\w-]+/lessons/[\\w-]+$`), {
      timeout: 20_000,
    });
    await expect(page.getByTestId("player")).toBeVisible();
    await page.getByTestId("mark-done").click();
    await expect(page.getByTestId("mark-done")).toHaveAttribute("data-done", "true");

    // the lesson finished made a study day below the 5-minute goal: the streak starts, the week fills
    await page.goto(`${tx.prefix}/dashboard`);
    await expect(page.getByTestId("welcome-card")).toHaveCount(0);
    await expect(page.getByTestId("dashboard-subtitle")).not.toHaveText(/^\s*$/);
    const card = page.getByTestId("habit-card");
    await expect(card.getByTestId("habit-today")).toContainText(tx.counted);
    await expect(card.getByTestId("habit-streak")).toContainText(tx.streak);
    await expect(card.locator(".habit-week__day").last()).toHaveAttribute("data-studied", "true");
    await noHorizontalScroll(page);

    // the choices were kept
    const token = await apiToken(request, { email, password });
    const habit = await request.get("/api/v1/habit", { headers: { authorization: `Bearer ${token}` } });
    expect((await habit.json()).data.settings).toMatchObject({
      goal_minutes: 5,
      learning_language: "ja",
      level: "starting",
      reminder_hour: 19,
    });
  });
}

test("a learner already welcomed is greeted back", async ({ page, request }) => {
  const learner = await createLearner(request, "welcomed");
  const token = await apiToken(request, learner);
  const set = await request.put("/api/v1/habit/settings", {
    headers: { authorization: `Bearer ${token}` },
    data: { learning_language: "en", level: "A2" },
  });
  expect(set.ok()).toBe(true);
  await signIn(page, learner);
  await expect(page.getByTestId("dashboard-subtitle")).toContainText("Content de vous revoir");
  await expect(page.getByTestId("welcome-card")).toHaveCount(0);
});
