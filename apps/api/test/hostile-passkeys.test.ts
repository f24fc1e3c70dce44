import { errorResponse } from "@parlons/contract";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { buildTestApp, PASSWORD } from "./helpers/build";
import { assertPasskey, createPasskey } from "./helpers/webauthn";
import { ROUTE_AUDIENCES } from "./route-audiences";

/**
 * WebAuthn answers that pass the body's schema but not the verifier: the general fuzz
 * (hostile-input.test.ts) replaces whole fields, which the schema refuses before any passkey code
 * runs. Here each answer is a valid one for a live challenge with one part made hostile (random
 * or truncated bytes, a flipped bit, strange JSON in clientDataJSON, another credential or user
 * handle), so the CBOR and signature code of the verifier is reached. Never a 5xx; every refusal a
 * 4xx in the spec's envelope; the passkey still works afterwards.
 */

const RUNS = 60;
const SEED = 20261127;
const site = { origin: "http://parlons.test", rpId: "parlons.test" };

const t = await buildTestApp();
afterAll(() => t.close());
const post = (url: string, payload: object, token?: string) =>
  t.request({ method: "POST", url: `/api/v1${url}`, payload, token });

const learner = await t.createUser();
const registration = await post("/user/me/passkeys/options", {}, learner.token);
const owned = createPasskey(registration.json().data, site);
expect(
  (await post("/user/me/passkeys", { name: "Clé", response: owned.response }, learner.token)).statusCode,
).toBe(201);

const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64url");
const fromB64 = (text: string) => Buffer.from(text, "base64url");

/** Ways to spoil one base64url part of an answer (its bytes). */
const spoiled = (valid: string): fc.Arbitrary<string> => {
  const bytes = fromB64(valid);
  const size = Math.max(1, bytes.length);
  return fc.oneof(
    fc.uint8Array({ maxLength: 300 }).map(b64),
    fc.nat({ max: size - 1 }).map((n) => b64(bytes.subarray(0, n))),
    fc.nat({ max: size * 8 - 1 }).map((bit) => {
      const copy = Buffer.from(bytes.length ? bytes : [0]);
      copy[bit >> 3] = (copy[bit >> 3] ?? 0) ^ (1 << (bit & 7));
      return b64(copy);
    }),
    // a CBOR map or array head claiming far more than follows
    fc
      .constantFrom("a5", "bf", "9b00000000ffffffff", "5b7fffffffffffffff", "d9d9f7a0")
      .map((hex) => b64(Buffer.from(hex, "hex"))),
    fc.constant(""),
  );
};

/** clientDataJSON with the live challenge kept and the rest hostile. */
const hostileClientData = (valid: string): fc.Arbitrary<string> => {
  const parsed = JSON.parse(fromB64(valid).toString("utf8")) as Record<string, unknown>;
  return fc
    .record({
      field: fc.constantFrom("type", "origin", "crossOrigin", "tokenBinding", "topOrigin", "__proto__"),
      value: fc.oneof(
        fc.string({ maxLength: 40 }),
        fc.constantFrom(null, 1e308, -1, true, [], {}, { status: "present", id: "%%" }),
        fc.constantFrom("webauthn.get", "webauthn.create", "http://parlons.test.evil", "null"),
      ),
    })
    .map(({ field, value }) => b64(JSON.stringify({ ...parsed, [field]: value })));
};

function check(res: { statusCode: number; body: string }) {
  if (res.statusCode >= 500) throw new Error(`server error ${res.statusCode}: ${res.body.slice(0, 300)}`);
  if (res.statusCode < 400) return;
  const parsed = errorResponse.safeParse(JSON.parse(res.body));
  if (!parsed.success || parsed.data.statusCode !== res.statusCode)
    throw new Error(`error ${res.statusCode} outside the envelope: ${res.body.slice(0, 300)}`);
}

type Answer = Record<string, unknown> & { response: Record<string, string> };
/** One nested part of an answer replaced. */
function mutated(valid: Answer, parts: string[]): fc.Arbitrary<Answer> {
  return fc.constantFrom(...parts).chain((part) => {
    const current = part === "id" ? (valid.id as string) : (valid.response[part] ?? "");
    const value =
      part === "clientDataJSON" ? fc.oneof(hostileClientData(current), spoiled(current)) : spoiled(current);
    return value.map((v) =>
      part === "id"
        ? { ...valid, id: v, rawId: v }
        : { ...valid, response: { ...valid.response, [part]: v } },
    );
  });
}

describe("hostile passkey answers", () => {
  it("registration (POST /v1/user/me/passkeys): a spoiled attestation is refused, never a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(), async (n) => {
        const options = (await post("/user/me/passkeys/options", {}, learner.token)).json().data;
        const { response } = createPasskey(options, site);
        const answer = fc.sample(mutated(response as Answer, ["clientDataJSON", "attestationObject", "id"]), {
          seed: SEED + n,
          numRuns: 1,
        })[0] as Answer;
        const res = await post("/user/me/passkeys", { name: "Fuzz", response: answer }, learner.token);
        check(res);
        // a spoiled part may happen to leave a valid answer (a bit of an unchecked field): then it is stored
        if (res.statusCode === 201) {
          const id = res.json().data.id as string;
          await t.request({ method: "DELETE", url: `/api/v1/user/me/passkeys/${id}`, token: learner.token });
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it("sign-in (POST /v1/auth/passkey/verify) and the second step: spoiled assertions are refused", async () => {
    let counter = owned.passkey.counter;
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.boolean(), async (n, asStep) => {
        // the throttle counts failures per account (tested in throttle.test.ts): each answer reaches the verifier
        await t.app.deps.services.attempts.clear(`passkey:${learner.id}`);
        let ticket: string | undefined;
        let challenge: string;
        if (asStep) {
          const first = await post("/user/authenticate", { username: learner.email, password: PASSWORD });
          ticket = first.json().data.secondFactor.ticket as string;
          challenge = (await post("/auth/second-factor/passkey/options", { ticket })).json().data.challenge;
        } else {
          challenge = (await post("/auth/passkey/options", {})).json().data.challenge;
        }
        counter += 1;
        const valid = assertPasskey(owned.passkey, challenge, site, { counter }) as Answer;
        const answer = fc.sample(
          mutated(valid, ["clientDataJSON", "authenticatorData", "signature", "userHandle", "id"]),
          { seed: SEED + n, numRuns: 1 },
        )[0] as Answer;
        const res = ticket
          ? await post("/auth/second-factor/passkey/verify", { ticket, response: answer })
          : await post("/auth/passkey/verify", { response: answer });
        check(res);
      }),
      { seed: SEED + 1, numRuns: RUNS },
    );
  });

  it("leaves the passkey working: a right answer still signs in", async () => {
    await t.app.deps.services.attempts.clear(`passkey:${learner.id}`);
    const challenge = (await post("/auth/passkey/options", {})).json().data.challenge;
    const res = await post("/auth/passkey/verify", {
      response: assertPasskey(owned.passkey, challenge, site, { counter: owned.passkey.counter + 10_000 }),
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it("the general fuzz walks the passkey, second-factor and session routes too", () => {
    const fuzzed = new Set(t.app.routeAccess.map((route) => route.operationId));
    const trust = Object.keys(ROUTE_AUDIENCES).filter((id) =>
      /Passkey|SecondFactor|Session|Totp|RecoveryCodes|TwoFactor/.test(id),
    );
    expect(trust.length).toBeGreaterThan(15);
    expect(trust.filter((id) => !fuzzed.has(id))).toEqual([]);
  });
});
