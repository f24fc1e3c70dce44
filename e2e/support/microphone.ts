import type { LaunchOptions } from "@playwright/test";
import config from "../playwright.config";

/**
 * The launch options of a spec that records: Chromium's fake microphone (its beep, or `file`, a
 * WAV it plays in a loop) and no permission prompt, beside the config's own options.
 */
export function fakeMicrophone(file?: string): LaunchOptions {
  const options = config.use?.launchOptions ?? {};
  return {
    ...options,
    args: [
      ...(options.args ?? []),
      "--use-fake-device-for-media-stream",
      "--use-fake-ui-for-media-stream",
      ...(file ? [`--use-file-for-fake-audio-capture=${file}`] : []),
    ],
  };
}
