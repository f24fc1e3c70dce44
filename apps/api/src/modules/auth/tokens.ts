import { createHash } from "node:crypto";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { unauthenticated } from "../../lib/errors";

export interface AccessClaims {
  sub: string;
  sid: string;
}

/** How far in the future a token's `iat` may be: the clocks of two API machines never agree exactly. */
export const CLOCK_SKEW_SECONDS = 30;

/**
 * The key id of a signing secret: the first 12 characters of its SHA-256 (base64url), the same in
 * every process that holds the secret, and saying nothing usable about it.
 */
function keyIdOf(secret: string): string {
  return createHash("sha256").update(`parlons:jwt-kid:${secret}`).digest("base64url").slice(0, 12);
}

/**
 * Signs access tokens with `secret` (its `kid` in the header) and verifies those of `secret` or
 * of `previous` (the secret before a rotation, while the tokens it signed may still be alive). A
 * token with an unknown `kid` is refused; one without a `kid` (signed before key ids existed) is
 * checked against the current secret only.
 */
export function createTokenSigner(
  secret: string,
  ttlSeconds: number,
  opts: { previous?: string; now?: () => number } = {},
) {
  const encode = (s: string) => new TextEncoder().encode(s);
  const current = { kid: keyIdOf(secret), key: encode(secret) };
  const keys = new Map([[current.kid, current.key]]);
  if (opts.previous) keys.set(keyIdOf(opts.previous), encode(opts.previous));
  const now = opts.now ?? Date.now;
  const invalid = () => unauthenticated("Invalid access token", "TOKEN_INVALID");
  return {
    ttlSeconds,
    async sign(claims: AccessClaims): Promise<string> {
      const iat = Math.floor(now() / 1000);
      return new SignJWT({ sid: claims.sid, typ: "access" })
        .setProtectedHeader({ alg: "HS256", kid: current.kid })
        .setSubject(claims.sub)
        .setIssuedAt(iat)
        .setExpirationTime(iat + ttlSeconds)
        .setIssuer("parlons")
        .sign(current.key);
    },
    /** The claims, with `exp` (seconds since the epoch) for callers that remember verified tokens. */
    async verify(token: string): Promise<AccessClaims & { exp: number }> {
      try {
        const { payload } = await jwtVerify(
          token,
          (header) => {
            const key = header.kid === undefined ? current.key : keys.get(header.kid);
            if (!key) throw invalid();
            return key;
          },
          { issuer: "parlons", algorithms: ["HS256"], currentDate: new Date(now()) },
        );
        if (
          payload.typ !== "access" ||
          typeof payload.sub !== "string" ||
          typeof payload.sid !== "string" ||
          typeof payload.exp !== "number" ||
          typeof payload.iat !== "number" ||
          // a token "issued" in the future was not issued by a clock of ours
          payload.iat > now() / 1000 + CLOCK_SKEW_SECONDS
        ) {
          throw invalid();
        }
        return { sub: payload.sub, sid: payload.sid, exp: payload.exp };
      } catch (err) {
        if (err instanceof joseErrors.JWTExpired)
          throw unauthenticated("Access token expired", "TOKEN_EXPIRED");
        if (err instanceof Error && err.name === "AppError") throw err;
        throw invalid();
      }
    },
  };
}
export type TokenSigner = ReturnType<typeof createTokenSigner>;
