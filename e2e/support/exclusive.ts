import { mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const prefix = () => `parlons-e2e-${process.env.E2E_PORT ?? "3100"}-`;

/**
 * Waits until no other Playwright worker of this run holds the lock `name`, takes it and returns
 * its release: for the few tests that change what every page shows (the site's settings) and
 * assert on it. mkdir is atomic, so one worker gets the folder; a lock older than ten minutes is a
 * crashed worker's and is taken over.
 */
export async function lock(name: string): Promise<() => void> {
  const folder = path.join(tmpdir(), `${prefix()}${name}.lock`);
  for (;;) {
    try {
      mkdirSync(folder);
      return () => rmSync(folder, { recursive: true, force: true });
    } catch {
      try {
        if (Date.now() - statSync(folder).mtimeMs > 600_000) rmSync(folder, { recursive: true, force: true });
      } catch {
        // released in between: try again
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** Clears the locks an interrupted run left (global setup, before any worker starts). */
export function clearLocks(): void {
  for (const entry of readdirSync(tmpdir()))
    if (entry.startsWith(prefix()) && entry.endsWith(".lock"))
      rmSync(path.join(tmpdir(), entry), { recursive: true, force: true });
}
