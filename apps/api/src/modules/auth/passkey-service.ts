import type { Passkey } from "@parlons/contract";
import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import { and, asc, eq, gt, lt } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { passkeyChallenges, passkeyCredentials, sessions } from "../../db/schema/auth";
import { AppError, conflict, isUniqueViolation, notFound, unauthenticated } from "../../lib/errors";
import type { UserService } from "../users/service";
import type { SecondFactorService } from "./second-factor-service";
import type { AttemptGuard } from "./throttle";

/** How long a WebAuthn challenge may wait for its answer. */
const CHALLENGE_TTL_MS = 5 * 60_000;
/** Passkeys one account may hold. */
const MAX_PASSKEYS = 20;
type Purpose = (typeof passkeyChallenges.$inferSelect)["purpose"];

const challengeInvalid = () =>
  new AppError(
    400,
    "PASSKEY_CHALLENGE_INVALID",
    "This passkey request has expired or was already used: try again",
  );
const invalid = (status: 401 | 422, why: string) =>
  new AppError(status, "PASSKEY_INVALID", `This passkey could not be verified: ${why}`);
const unknown = () => unauthenticated("This passkey is not registered on this site", "PASSKEY_UNKNOWN");

/** The challenge a browser signed, read from its clientDataJSON (checked again by the verifier). */
function challengeIn(clientDataJSON: string): string {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(clientDataJSON, "base64url").toString("utf8"));
    const challenge = (parsed as { challenge?: unknown }).challenge;
    if (typeof challenge === "string" && challenge.length > 0 && challenge.length < 200) return challenge;
  } catch {
    // falls through: not JSON
  }
  throw challengeInvalid();
}

const listed = (row: typeof passkeyCredentials.$inferSelect): Passkey => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

/**
 * Passkeys (WebAuthn, @simplewebauthn/server): registered in the profile, used as the second step
 * of a sign-in or to sign in alone (discoverable credentials, user verification required). Each
 * challenge is stored, answered once (deleted by its answer) within 5 minutes; attempts on an
 * account are counted by the sign-in throttle (`passkey:<user id>`). docs/decisions.md, "Passkeys".
 */
export function createPasskeyService(deps: {
  db: Db;
  relyingParty: { origin: string; rpId: string; rpName: string };
  users: Pick<UserService, "findById">;
  secondFactor: Pick<
    SecondFactorService,
    "ticketChallenge" | "setupChallenge" | "consumeTicket" | "mayRemovePasskey"
  >;
  attempts: AttemptGuard;
}) {
  const { db, relyingParty, users, secondFactor, attempts } = deps;
  const expected = { expectedOrigin: relyingParty.origin, expectedRPID: relyingParty.rpId };

  async function remember(challenge: string, purpose: Purpose, userId: string | null) {
    // answers never given leave rows behind: the expired ones go as new ones come
    await db.delete(passkeyChallenges).where(lt(passkeyChallenges.expiresAt, new Date()));
    await db
      .insert(passkeyChallenges)
      .values({ challenge, purpose, userId, expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS) });
  }

  /** Takes the challenge a response signed: once, live, for this purpose (and account, when given). */
  async function take(clientDataJSON: string, purpose: Purpose, userId: string | null, tx: DbOrTx = db) {
    const challenge = challengeIn(clientDataJSON);
    const [row] = await tx
      .delete(passkeyChallenges)
      .where(
        and(
          eq(passkeyChallenges.challenge, challenge),
          eq(passkeyChallenges.purpose, purpose),
          gt(passkeyChallenges.expiresAt, new Date()),
        ),
      )
      .returning();
    if (!row || (userId !== null && row.userId !== userId)) throw challengeInvalid();
    return challenge;
  }

  async function credentialsOf(userId: string) {
    return db
      .select()
      .from(passkeyCredentials)
      .where(eq(passkeyCredentials.userId, userId))
      .orderBy(asc(passkeyCredentials.createdAt));
  }

  const descriptor = (row: typeof passkeyCredentials.$inferSelect) => ({
    id: row.credentialId,
    transports: row.transports as AuthenticatorTransport[],
  });

  /**
   * Checks an assertion against the stored credential (signature, origin, RP id, user verification,
   * counter) under the account's throttle; the counter and last use are updated when it holds.
   */
  async function assert(
    response: AuthenticationResponseJSON,
    purpose: "second_factor" | "sign_in",
    forUser: string | null,
  ) {
    const expectedChallenge = await take(response.response.clientDataJSON, purpose, forUser);
    const [row] = await db
      .select()
      .from(passkeyCredentials)
      .where(eq(passkeyCredentials.credentialId, response.id));
    if (!row || (forUser !== null && row.userId !== forUser)) throw unknown();
    // a discoverable passkey names its account too: it must be the one that registered it
    if (response.response.userHandle && response.response.userHandle !== userHandleOf(row.userId))
      throw unknown();
    const subject = `passkey:${row.userId}`;
    await attempts.begin(subject);
    let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
    try {
      verification = await verifyAuthenticationResponse({
        response,
        expectedChallenge,
        ...expected,
        credential: {
          id: row.credentialId,
          publicKey: Buffer.from(row.publicKey, "base64url"),
          counter: row.counter,
          transports: row.transports as AuthenticatorTransport[],
        },
        requireUserVerification: true,
      });
    } catch (err) {
      throw invalid(401, err instanceof Error ? err.message : "refused");
    }
    if (!verification.verified) throw invalid(401, "refused");
    await attempts.clear(subject);
    await db
      .update(passkeyCredentials)
      .set({ counter: verification.authenticationInfo.newCounter, lastUsedAt: new Date() })
      .where(eq(passkeyCredentials.id, row.id));
    return row.userId;
  }

  async function creationOptions(userId: string) {
    const user = await users.findById(userId);
    if (!user) throw unauthenticated();
    const existing = await credentialsOf(userId);
    if (existing.length >= MAX_PASSKEYS)
      throw new AppError(409, "LIMIT_REACHED", `${MAX_PASSKEYS} passkeys at most`);
    const options = await generateRegistrationOptions({
      rpName: relyingParty.rpName,
      rpID: relyingParty.rpId,
      userName: user.email,
      userDisplayName: user.fullName || user.email,
      userID: new TextEncoder().encode(userId),
      attestationType: "none",
      excludeCredentials: existing.map(descriptor),
      authenticatorSelection: { residentKey: "required", userVerification: "required" },
      supportedAlgorithmIDs: [-7, -257],
      timeout: CHALLENGE_TTL_MS,
    });
    await remember(options.challenge, "register", userId);
    return { ...options };
  }

  /** Verifies a created passkey against this account's challenge and stores it, `also` in the same transaction. */
  async function store(
    userId: string,
    name: string,
    response: RegistrationResponseJSON,
    also: (tx: DbOrTx) => Promise<void>,
  ) {
    const expectedChallenge = await take(response.response.clientDataJSON, "register", userId);
    let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verification = await verifyRegistrationResponse({
        response,
        expectedChallenge,
        ...expected,
        requireUserVerification: true,
      });
    } catch (err) {
      throw invalid(422, err instanceof Error ? err.message : "refused");
    }
    const info = verification.registrationInfo;
    if (!verification.verified || !info) throw invalid(422, "refused");
    try {
      const [row] = await db.transaction(async (tx) => {
        const rows = await tx
          .insert(passkeyCredentials)
          .values({
            userId,
            credentialId: info.credential.id,
            publicKey: Buffer.from(info.credential.publicKey).toString("base64url"),
            counter: info.credential.counter,
            transports: response.response.transports ?? [],
            name,
          })
          .returning();
        await also(tx);
        return rows;
      });
      if (!row) throw invalid(422, "not stored");
      return listed(row);
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict("This passkey is already registered");
      throw err;
    }
  }

  return {
    /** Creation options for a new passkey of a signed-in account (its passkeys excluded). */
    registrationOptions: creationOptions,

    /** Stores the passkey a browser created for one of this account's challenges; the session counts as opened with it. */
    async register(userId: string, sessionId: string, name: string, response: RegistrationResponseJSON) {
      return store(userId, name, response, async (tx) => {
        await tx.update(sessions).set({ secondFactor: "passkey" }).where(eq(sessions.id, sessionId));
      });
    },

    /** During a sign-in that must set a second factor up: creation options for the ticket's account. */
    async setupOptions(ticket: string) {
      const challenge = await secondFactor.setupChallenge(ticket);
      return creationOptions(challenge.userId);
    },

    /**
     * Its answer: the passkey is stored and the ticket ends in the same transaction (a ticket opens
     * one session), and says whose sign-in it completes.
     */
    async registerWithTicket(ticket: string, name: string, response: RegistrationResponseJSON) {
      const challenge = await secondFactor.setupChallenge(ticket);
      await store(challenge.userId, name, response, (tx) => secondFactor.consumeTicket(challenge.id, tx));
      return { userId: challenge.userId, meta: challenge.meta, method: challenge.method };
    },

    async list(userId: string): Promise<Passkey[]> {
      return (await credentialsOf(userId)).map(listed);
    },

    async rename(userId: string, id: string, name: string): Promise<Passkey> {
      const [row] = await db
        .update(passkeyCredentials)
        .set({ name })
        .where(and(eq(passkeyCredentials.id, id), eq(passkeyCredentials.userId, userId)))
        .returning();
      if (!row) throw notFound("Passkey");
      return listed(row);
    },

    /** Removes a passkey; refused (403) for the last factor of staff while one is required. */
    async remove(userId: string, id: string) {
      const [row] = await db
        .select({ id: passkeyCredentials.id })
        .from(passkeyCredentials)
        .where(and(eq(passkeyCredentials.id, id), eq(passkeyCredentials.userId, userId)));
      if (!row) throw notFound("Passkey");
      if (!(await secondFactor.mayRemovePasskey(userId)))
        throw new AppError(403, "SECOND_FACTOR_REQUIRED", "Staff must keep a second factor on this site");
      await db.delete(passkeyCredentials).where(eq(passkeyCredentials.id, id));
    },

    /** Request options for the second step of a sign-in: the account's passkeys. */
    async secondFactorOptions(ticket: string) {
      const challenge = await secondFactor.ticketChallenge(ticket);
      const rows = await credentialsOf(challenge.userId);
      if (rows.length === 0) throw unknown();
      const options = await generateAuthenticationOptions({
        rpID: relyingParty.rpId,
        allowCredentials: rows.map(descriptor),
        userVerification: "required",
        timeout: CHALLENGE_TTL_MS,
      });
      await remember(options.challenge, "second_factor", challenge.userId);
      return { ...options };
    },

    /** The second step answered by a passkey: ends the ticket and says whose sign-in it completes. */
    async verifySecondFactor(ticket: string, response: AuthenticationResponseJSON) {
      const challenge = await secondFactor.ticketChallenge(ticket);
      await assert(response, "second_factor", challenge.userId);
      await db.transaction((tx) => secondFactor.consumeTicket(challenge.id, tx));
      return { userId: challenge.userId, meta: challenge.meta, method: challenge.method };
    },

    /** Request options for a sign-in with a passkey alone: the browser offers the site's passkeys. */
    async signInOptions() {
      const options = await generateAuthenticationOptions({
        rpID: relyingParty.rpId,
        userVerification: "required",
        timeout: CHALLENGE_TTL_MS,
      });
      await remember(options.challenge, "sign_in", null);
      return { ...options };
    },

    /** A sign-in with a passkey alone (it proves possession and, verified, the user): its account. */
    async verifySignIn(response: AuthenticationResponseJSON): Promise<string> {
      return assert(response, "sign_in", null);
    },
  };
}

/** The user handle a passkey of this account carries (its id's UTF-8 bytes, base64url). */
function userHandleOf(userId: string): string {
  return Buffer.from(userId, "utf8").toString("base64url");
}
