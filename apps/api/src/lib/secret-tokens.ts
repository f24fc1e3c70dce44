import { createHash, randomBytes } from "node:crypto";

/** A random, unguessable token (256 bits) for links and refresh cookies. */
export function randomToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Tokens are stored hashed: a database leak does not hand out live tokens. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
