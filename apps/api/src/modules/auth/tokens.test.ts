import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { loadConfig } from "../../config";
import { createMailPreferences } from "../mail/preferences-service";
import { CLOCK_SKEW_SECONDS, createTokenSigner } from "./tokens";

const OLD = "old-secret-old-secret-old-secret-0123456789";
const NEW = "new-secret-new-secret-new-secret-0123456789";
const OTHER = "someone-else-someone-else-someone-else-0123";

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp({ env: { JWT_SECRET: NEW, JWT_SECRET_PREVIOUS: OLD } });
});
afterAll(async () => {
  await t.close();
});

const me = (token: string) => t.request({ method: "GET", url: "/api/v1/user/me", token });
const signerOf = (secret: string, now?: () => number) => createTokenSigner(secret, 900, { now });

describe("an access token is bound to its session's user", () => {
  it("refuses a token whose sid is a live session of another user, from the database and from memory", async () => {
    const victim = await t.createUser();
    const attacker = await t.createUser();
    const victimSession = await t.app.deps.services.sessions.start(victim.id, {});
    const forged = await signerOf(NEW).sign({ sub: attacker.id, sid: victimSession.sessionId });

    const cold = await me(forged);
    expect(cold.statusCode).toBe(401);
    expect(cold.json().code).toBe("TOKEN_INVALID");

    // the victim's session is now in memory: the forged token is still refused
    expect((await me(victimSession.accessToken)).statusCode).toBe(200);
    const warm = await me(forged);
    expect(warm.statusCode).toBe(401);
    expect(warm.json().code).toBe("TOKEN_INVALID");
    // and the victim's session was not ended by the attempt
    expect((await me(victimSession.accessToken)).statusCode).toBe(200);
    expect((await me(attacker.token)).statusCode).toBe(200);
  });
});

describe("iat", () => {
  it("refuses a token issued in the future, allows a small clock skew", async () => {
    const user = await t.createUser();
    const session = await t.app.deps.services.sessions.start(user.id, {});
    const at = (ms: number) =>
      signerOf(NEW, () => Date.now() + ms).sign({ sub: user.id, sid: session.sessionId });

    const future = await me(await at(10 * 60_000));
    expect(future.statusCode).toBe(401);
    expect(future.json().code).toBe("TOKEN_INVALID");
    expect((await me(await at((CLOCK_SKEW_SECONDS + 5) * 1000))).statusCode).toBe(401);
    expect((await me(await at((CLOCK_SKEW_SECONDS - 10) * 1000))).statusCode).toBe(200);
  });

  it("refuses a token without iat", async () => {
    const user = await t.createUser();
    const session = await t.app.deps.services.sessions.start(user.id, {});
    const token = await new SignJWT({ sid: session.sessionId, typ: "access" })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(user.id)
      .setExpirationTime("5m")
      .setIssuer("parlons")
      .sign(new TextEncoder().encode(NEW));
    expect((await me(token)).statusCode).toBe(401);
  });
});

describe("key rotation (JWT_SECRET with JWT_SECRET_PREVIOUS)", () => {
  it("signs with the new key, its kid in the header", async () => {
    const [encoded = ""] = (await t.adminToken()).split(".");
    const header = JSON.parse(Buffer.from(encoded, "base64url").toString());
    expect(header).toMatchObject({ alg: "HS256", kid: expect.stringMatching(/^[\w-]{12}$/) });
  });

  it("accepts a token signed by the previous key, refuses an unknown kid and a kid that lies", async () => {
    const user = await t.createUser();
    const session = await t.app.deps.services.sessions.start(user.id, {});
    const claims = { sub: user.id, sid: session.sessionId };

    expect((await me(await signerOf(OLD).sign(claims))).statusCode).toBe(200);
    expect((await me(await signerOf(NEW).sign(claims))).statusCode).toBe(200);

    const unknown = await me(await signerOf(OTHER).sign(claims));
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().code).toBe("TOKEN_INVALID");

    // the previous key's kid on a token signed with another secret
    const [, body, sig] = (await signerOf(OTHER).sign(claims)).split(".");
    const oldHeader = (await signerOf(OLD).sign(claims)).split(".")[0];
    expect((await me(`${oldHeader}.${body}.${sig}`)).statusCode).toBe(401);

    // without a kid (signed before key ids existed): the current secret only
    const noKid = (secret: string) =>
      new SignJWT({ sid: session.sessionId, typ: "access" })
        .setProtectedHeader({ alg: "HS256" })
        .setSubject(user.id)
        .setIssuedAt()
        .setExpirationTime("5m")
        .setIssuer("parlons")
        .sign(new TextEncoder().encode(secret));
    expect((await me(await noKid(NEW))).statusCode).toBe(200);
    expect((await me(await noKid(OLD))).statusCode).toBe(401);
  });

  it("keeps unsubscribe links signed with the previous secret working", async () => {
    const user = await t.createUser();
    const old = createMailPreferences({
      db: t.database.db,
      secret: OLD,
      publicUrl: t.config.publicUrl,
      findUser: async () => undefined,
    });
    const token = old.tokenFor(user.id, "news");
    expect(t.app.deps.services.mailPreferences.verify(token)).toMatchObject({
      userId: user.id,
      kind: "news",
    });
    const stranger = createMailPreferences({
      db: t.database.db,
      secret: OTHER,
      publicUrl: t.config.publicUrl,
      findUser: async () => undefined,
    });
    expect(() => t.app.deps.services.mailPreferences.verify(stranger.tokenFor(user.id, "news"))).toThrow();
  });

  it("validates JWT_SECRET_PREVIOUS at start-up", () => {
    const base = { DATA_DIR: "/tmp/parlons-config-test" };
    expect(() => loadConfig({ ...base, JWT_SECRET: NEW, JWT_SECRET_PREVIOUS: "short" })).toThrow(
      /JWT_SECRET_PREVIOUS/,
    );
    expect(() => loadConfig({ ...base, JWT_SECRET: NEW, JWT_SECRET_PREVIOUS: NEW })).toThrow(
      /JWT_SECRET_PREVIOUS: is the same as JWT_SECRET/,
    );
    expect(() => loadConfig({ ...base, JWT_SECRET_PREVIOUS: OLD })).toThrow(/set JWT_SECRET too/);
    expect(loadConfig({ ...base, JWT_SECRET: NEW, JWT_SECRET_PREVIOUS: OLD }).jwtPreviousSecret).toBe(OLD);
  });
});
