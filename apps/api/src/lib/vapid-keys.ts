import { createECDH } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "./private-files";

/** A Web Push sender's identity (VAPID, RFC 8292): a P-256 key pair, base64url. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** The public key of a private one, or null when it is not a P-256 private key. */
function publicKeyOf(privateKey: string): string | null {
  try {
    const ecdh = createECDH("prime256v1");
    ecdh.setPrivateKey(Buffer.from(privateKey, "base64url"));
    return ecdh.getPublicKey().toString("base64url");
  } catch {
    return null;
  }
}

function generate(): VapidKeys {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const privateKey = Buffer.alloc(32);
  const raw = ecdh.getPrivateKey();
  raw.copy(privateKey, 32 - raw.length);
  return {
    publicKey: ecdh.getPublicKey().toString("base64url"),
    privateKey: privateKey.toString("base64url"),
  };
}

/**
 * The VAPID keys: from the environment (both set; the public key must be the private key's), or
 * else from DATA_DIR/vapid-keys.json, generated there at the first start like the JWT secret.
 * Throws a sentence naming what is wrong.
 */
export function vapidKeys(dataDir: string, fromEnv: Partial<VapidKeys>): VapidKeys {
  if (fromEnv.publicKey && fromEnv.privateKey) {
    if (publicKeyOf(fromEnv.privateKey) !== fromEnv.publicKey)
      throw new Error("VAPID_PUBLIC_KEY: is not the public key of VAPID_PRIVATE_KEY");
    return { publicKey: fromEnv.publicKey, privateKey: fromEnv.privateKey };
  }
  const file = path.join(dataDir, "vapid-keys.json");
  if (existsSync(file)) {
    const kept = JSON.parse(readFileSync(file, "utf8")) as Partial<VapidKeys>;
    if (!kept.privateKey || publicKeyOf(kept.privateKey) !== kept.publicKey)
      throw new Error(`${file}: not a VAPID key pair (remove it to generate a new one)`);
    return { publicKey: kept.publicKey, privateKey: kept.privateKey };
  }
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const keys = generate();
  writeFileSync(file, `${JSON.stringify(keys)}\n`, { mode: PRIVATE_FILE_MODE });
  return keys;
}
