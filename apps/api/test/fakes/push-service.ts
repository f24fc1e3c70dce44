import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A browser's push subscription made the way a browser makes one: a P-256 key pair and a 16-byte
 * authentication secret; `decrypt` opens what a push service received for it (aes128gcm, RFC 8291).
 */
export function fakeBrowserSubscription(endpoint: string) {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const auth = randomBytes(16);
  const publicKey = ecdh.getPublicKey();
  return {
    endpoint,
    keys: { p256dh: publicKey.toString("base64url"), auth: auth.toString("base64url") },
    /** The plaintext of an aes128gcm message (RFC 8188 framing, RFC 8291 keys), one record. */
    decrypt(body: Buffer): string {
      const salt = body.subarray(0, 16);
      const idLength = body.readUInt8(20);
      const serverKey = body.subarray(21, 21 + idLength);
      const sealed = body.subarray(21 + idLength);
      const shared = ecdh.computeSecret(serverKey);
      const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), publicKey, serverKey]);
      const ikm = Buffer.from(hkdfSync("sha256", shared, auth, keyInfo, 32));
      const cek = Buffer.from(
        hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16),
      );
      const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));
      const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
      decipher.setAuthTag(sealed.subarray(sealed.length - 16));
      const padded = Buffer.concat([
        decipher.update(sealed.subarray(0, sealed.length - 16)),
        decipher.final(),
      ]);
      let end = padded.length - 1;
      while (end > 0 && padded[end] === 0) end -= 1;
      if (padded[end] !== 2) throw new Error("not the last record's padding delimiter");
      return padded.subarray(0, end).toString("utf8");
    },
  };
}

/** The claims of a VAPID Authorization header (`vapid t=<jwt>, k=<key>`), its ES256 signature checked against k. */
export function vapidClaims(authorization: string): { aud: string; sub: string; exp: number; key: string } {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(authorization);
  if (!match?.[1] || !match[2]) throw new Error(`not a VAPID authorization: ${authorization}`);
  const [header, payload, signature] = match[1].split(".") as [string, string, string];
  const raw = Buffer.from(match[2], "base64url");
  const key = createPublicKey({
    key: {
      kty: "EC",
      crv: "P-256",
      x: raw.subarray(1, 33).toString("base64url"),
      y: raw.subarray(33, 65).toString("base64url"),
    },
    format: "jwk",
  });
  const signed = verify(
    "sha256",
    Buffer.from(`${header}.${payload}`),
    { key, dsaEncoding: "ieee-p1363" },
    Buffer.from(signature, "base64url"),
  );
  if (!signed) throw new Error("the VAPID signature does not verify");
  return { ...JSON.parse(Buffer.from(payload, "base64url").toString("utf8")), key: match[2] };
}

export interface ReceivedPush {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * A push service on 127.0.0.1 speaking RFC 8030's side the server sees: takes a POSTed message
 * with 201 Created, or answers the status set for a path (404/410: the subscription is gone).
 */
export async function startFakePushService() {
  const received: ReceivedPush[] = [];
  const statuses = new Map<string, number>();
  const waiters: (() => void)[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) });
      for (const wake of waiters.splice(0)) wake();
      res.writeHead(statuses.get(req.url ?? "") ?? 201, { location: `${req.url}/m/1` }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    received,
    /** The endpoint answers this status from now on. */
    answer(path: string, status: number) {
      statuses.set(path, status);
    },
    /** Resolves once a message for this path has arrived (those already there count). */
    async next(path: string, timeoutMs = 10_000): Promise<ReceivedPush> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = received.find((r) => r.path === path);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no push arrived for ${path}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
