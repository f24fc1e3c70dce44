import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "../support/fixtures";
import { linkFromMail } from "../support/mail";
import { type Account, createLearner, signInWithForm } from "../support/session";

/** Wrong passwords through the API until `count` were checked, waiting whatever the server asks. */
async function guessUntil(request: APIRequestContext, account: Account, count: number, checked = 0) {
  let done = checked;
  while (done < count) {
    const res = await request.post("/api/v1/user/authenticate", {
      data: { username: account.email, password: "Not-the-password-1!" },
    });
    if (res.status() === 429) {
      await new Promise((r) => setTimeout(r, Number(res.headers()["retry-after"]) * 1000));
      continue;
    }
    expect(res.status()).toBe(401);
    done += 1;
  }
  return done;
}

async function submitLogin(page: Page, prefix: string, account: Account, labels: [string, string]) {
  await page.goto(`${prefix}/auth/login`);
  const form = page.getByTestId("login-form");
  await form.getByLabel(labels[0]).fill(account.email);
  await form.getByLabel(labels[1]).fill(account.password);
  await page.getByTestId("login-submit").click();
}

test("wrong passwords make the account wait, then lock it: the form says so in FR, EN and ES; the mailed link unlocks it", async ({
  page,
  request,
}) => {
  // the throttle's real waits (1 + 2 + 4 + 8 + 16 s) are part of what is tested
  test.setTimeout(150_000);
  const account = await createLearner(request, "locked");

  // 9 wrong passwords: the account now waits 16 s, even for the right one
  let checked = await guessUntil(request, account, 9);
  await submitLogin(page, "", account, ["E-mail", "Mot de passe"]);
  const waiting = page.getByTestId("login-throttled");
  await expect(waiting).toBeVisible();
  await expect(waiting).toContainText("Connexion suspendue un moment");
  await expect(waiting).toContainText(/réessayez dans \d+ s/);
  await expect(page).toHaveURL(/\/auth\/login$/);

  // the 10th locks it for an hour and mails the owner
  checked = await guessUntil(request, account, 10, checked);
  const views = [
    {
      prefix: "",
      labels: ["E-mail", "Mot de passe"],
      title: "Compte verrouillé",
      text: "réessayez dans 1 h",
    },
    { prefix: "/en", labels: ["Email", "Password"], title: "Account locked", text: "try again in 1 h" },
    {
      prefix: "/es",
      labels: ["Correo electrónico", "Contraseña"],
      title: "Cuenta bloqueada",
      text: "vuelve a intentarlo dentro de 1 h",
    },
  ] as const;
  for (const view of views) {
    await submitLogin(page, view.prefix, account, [...view.labels]);
    const locked = page.getByTestId("login-locked");
    await expect(locked).toBeVisible();
    await expect(locked).toContainText(view.title);
    await expect(locked).toContainText(view.text);
  }
  await page.screenshot({ path: test.info().outputPath("locked.png") });

  // the link in the mail: opening it changes nothing, the button unlocks
  const link = await linkFromMail(account.email, /http:\/\/[^\s"<>]+\/unlock\/[\w-]+/);
  await page.goto(link);
  await page.getByTestId("unlock-confirm").click();
  await expect(page.getByTestId("unlock-done")).toBeVisible();
  await signInWithForm(page, account);

  // used once
  await page.goto(link);
  await page.getByTestId("unlock-confirm").click();
  await expect(page.getByTestId("unlock-failed")).toBeVisible();
});
