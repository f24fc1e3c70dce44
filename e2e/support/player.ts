import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

/** Plays the lesson on the page until its audio is past one second, then pauses it. */
export async function playForASecond(page: Page): Promise<void> {
  await page.getByTestId("player-play").click();
  await expect
    .poll(
      () => page.locator("[data-testid=player] audio").evaluate((el: HTMLAudioElement) => el.currentTime),
      { timeout: 15_000 },
    )
    .toBeGreaterThan(1);
  await page.getByTestId("player-play").click();
}
