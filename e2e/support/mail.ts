import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { MAIL_DIR } from "./env";

/** Waits for a mail to `to` and returns the first link matching `pattern` in it (quoted-printable decoded). */
export function linkFromMail(to: string, pattern: RegExp, timeoutMs = 15_000): Promise<string> {
  return findInMail(to, pattern, timeoutMs);
}

/** Waits for a mail to `to` whose source (soft line breaks and =3D decoded) matches `pattern`; returns the match. */
export async function findInMail(to: string, pattern: RegExp, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (existsSync(MAIL_DIR)) {
      const files = readdirSync(MAIL_DIR)
        .filter((f) => f.includes(to))
        .sort()
        .reverse();
      for (const file of files) {
        const raw = readFileSync(path.join(MAIL_DIR, file), "utf8")
          .replace(/=\r?\n/g, "")
          .replace(/=3D/g, "=");
        const match = raw.match(pattern);
        if (match) return match[0];
      }
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no mail to ${to} with ${pattern}`);
}
