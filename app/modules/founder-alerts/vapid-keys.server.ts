import crypto from "node:crypto";

/** A VAPID key pair as web-push takes it: the P-256 public point (65 bytes) and private scalar (32 bytes), base64url. */
export type VapidKeys = { publicKey: string; privateKey: string };

/** The length web-push requires of a P-256 private key, decoded. */
const PRIVATE_KEY_BYTES = 32;

export function generateVapidKeys(): VapidKeys {
  const ecdh = crypto.createECDH("prime256v1");
  ecdh.generateKeys();
  return withFullLengthPrivateKey({ publicKey: ecdh.getPublicKey().toString("base64url"), privateKey: ecdh.getPrivateKey().toString("base64url") });
}

/**
 * The pair with its private key written in full 32 bytes. Node's ECDH drops a private scalar's leading zero bytes
 * (one key in about 240 starts with one), and web-push refuses such a key, so every push of that server would fail.
 * Keys generated or configured that way before are the same number, only written shorter: they are padded, not
 * replaced, so devices already subscribed keep working.
 */
export function withFullLengthPrivateKey(keys: VapidKeys): VapidKeys {
  const privateKey = Buffer.from(keys.privateKey, "base64url");
  if (privateKey.length >= PRIVATE_KEY_BYTES) return keys;
  return { publicKey: keys.publicKey, privateKey: Buffer.concat([Buffer.alloc(PRIVATE_KEY_BYTES - privateKey.length), privateKey]).toString("base64url") };
}

/** True when `value` is a P-256 key pair whose public key belongs to its private key. */
export function isVapidKeyPair(value: unknown): value is VapidKeys {
  if (typeof value !== "object" || value === null) return false;
  const { publicKey, privateKey } = value as Record<string, unknown>;
  if (typeof publicKey !== "string" || typeof privateKey !== "string") return false;
  if (!/^[A-Za-z0-9_-]+$/.test(publicKey) || !/^[A-Za-z0-9_-]+$/.test(privateKey)) return false;
  try {
    const ecdh = crypto.createECDH("prime256v1");
    ecdh.setPrivateKey(Buffer.from(privateKey, "base64url"));
    return Buffer.from(publicKey, "base64url").equals(ecdh.getPublicKey());
  } catch {
    return false;
  }
}
