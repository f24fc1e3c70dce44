import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";

/**
 * A software authenticator for the API tests, built on node:crypto alone: an ES256 (P-256) key,
 * "none" attestation, authenticator data with its flags and signature counter, and assertions
 * signed over authData || SHA-256(clientDataJSON), as a browser's passkey answers (WebAuthn L2).
 */

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

/** Just enough CBOR (RFC 8949) for an attestation object and a COSE key. */
type Cbor = number | string | Uint8Array | Map<number | string, Cbor>;
function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 256) return Buffer.from([(major << 5) | 24, n]);
  if (n < 65536) return Buffer.from([(major << 5) | 25, n >> 8, n & 255]);
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(n, 1);
  return b;
}
function cbor(value: Cbor): Buffer {
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === "string") {
    const bytes = Buffer.from(value, "utf8");
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  const parts = [head(5, value.size)];
  for (const [k, v] of value) parts.push(cbor(k), cbor(v));
  return Buffer.concat(parts);
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export interface SoftPasskey {
  credentialId: Buffer;
  privateKey: KeyObject;
  /** The COSE form of the public key, as registered. */
  cosePublicKey: Buffer;
  counter: number;
  userHandle: string;
}

export interface Relying {
  origin: string;
  rpId: string;
}

function authData(rpId: string, flags: number, counter: number, attested?: Buffer): Buffer {
  const c = Buffer.alloc(4);
  c.writeUInt32BE(counter);
  return Buffer.concat([sha256(rpId), Buffer.from([flags]), c, ...(attested ? [attested] : [])]);
}

function clientData(type: "webauthn.create" | "webauthn.get", challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), "utf8");
}

/** A new passkey and the registration answer for these creation options. */
export function createPasskey(
  options: { challenge: string; user: { id: string } },
  rp: Relying,
  opts: { userVerified?: boolean } = {},
): { passkey: SoftPasskey; response: Record<string, unknown> } {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwk = publicKey.export({ format: "jwk" });
  const cosePublicKey = cbor(
    new Map<number, Cbor>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x ?? "", "base64url")],
      [-3, Buffer.from(jwk.y ?? "", "base64url")],
    ]),
  );
  const credentialId = randomBytes(32);
  const length = Buffer.alloc(2);
  length.writeUInt16BE(credentialId.length);
  const attested = Buffer.concat([Buffer.alloc(16), length, credentialId, cosePublicKey]);
  const flags = FLAG_UP | FLAG_AT | (opts.userVerified === false ? 0 : FLAG_UV);
  const data = authData(rp.rpId, flags, 0, attested);
  const attestationObject = cbor(
    new Map<string, Cbor>([
      ["fmt", "none"],
      ["attStmt", new Map()],
      ["authData", data],
    ]),
  );
  const passkey = { credentialId, privateKey, cosePublicKey, counter: 0, userHandle: options.user.id };
  return {
    passkey,
    response: {
      id: b64url(credentialId),
      rawId: b64url(credentialId),
      type: "public-key",
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
      response: {
        clientDataJSON: b64url(clientData("webauthn.create", options.challenge, rp.origin)),
        attestationObject: b64url(attestationObject),
        transports: ["internal"],
      },
    },
  };
}

/**
 * An assertion of this passkey for a challenge: the counter moves on by one unless `counter`
 * says what to send; `origin` and `rpId` may be changed to play a phishing site.
 */
export function assertPasskey(
  passkey: SoftPasskey,
  challenge: string,
  rp: Relying,
  opts: { counter?: number; userVerified?: boolean } = {},
): Record<string, unknown> {
  const counter = opts.counter ?? passkey.counter + 1;
  passkey.counter = Math.max(passkey.counter, counter);
  const data = authData(rp.rpId, FLAG_UP | (opts.userVerified === false ? 0 : FLAG_UV), counter);
  const client = clientData("webauthn.get", challenge, rp.origin);
  const signature = sign("sha256", Buffer.concat([data, sha256(client)]), passkey.privateKey);
  return {
    id: b64url(passkey.credentialId),
    rawId: b64url(passkey.credentialId),
    type: "public-key",
    clientExtensionResults: {},
    response: {
      clientDataJSON: b64url(client),
      authenticatorData: b64url(data),
      signature: b64url(signature),
      userHandle: passkey.userHandle,
    },
  };
}
