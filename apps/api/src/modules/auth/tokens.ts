import { createHash, randomBytes } from "node:crypto";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { unauthenticated } from "../../lib/errors";

export interface AccessClaims {
  sub: string;
  sid: string;
}

export function createTokenSigner(secret: string, ttlSeconds: number) {
  const key = new TextEncoder().encode(secret);
  return {
    ttlSeconds,
    async sign(claims: AccessClaims): Promise<string> {
      return new SignJWT({ sid: claims.sid, typ: "access" })
        .setProtectedHeader({ alg: "HS256" })
        .setSubject(claims.sub)
        .setIssuedAt()
        .setExpirationTime(`${ttlSeconds}s`)
        .setIssuer("parlons")
        .sign(key);
    },
    /** The claims, with `exp` (seconds since the epoch) for callers that remember verified tokens. */
    async verify(token: string): Promise<AccessClaims & { exp: number }> {
      try {
        const { payload } = await jwtVerify(token, key, { issuer: "parlons", algorithms: ["HS256"] });
        if (
          payload.typ !== "access" ||
          typeof payload.sub !== "string" ||
          typeof payload.sid !== "string" ||
          typeof payload.exp !== "number"
        ) {
          throw unauthenticated("Invalid access token", "TOKEN_INVALID");
        }
        return { sub: payload.sub, sid: payload.sid, exp: payload.exp };
      } catch (err) {
        if (err instanceof joseErrors.JWTExpired)
          throw unauthenticated("Access token expired", "TOKEN_EXPIRED");
        if (err instanceof Error && err.name === "AppError") throw err;
        throw unauthenticated("Invalid access token", "TOKEN_INVALID");
      }
    },
  };
}
export type TokenSigner = ReturnType<typeof createTokenSigner>;

/** A random, unguessable token (256 bits) for links and refresh cookies. */
export function randomToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Tokens are stored hashed: a database leak does not hand out live tokens. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
