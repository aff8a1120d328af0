import crypto from "node:crypto";

/** A VAPID key pair as web-push takes it: the P-256 public point (65 bytes) and private scalar (32 bytes), base64url. */
export type VapidKeys = { publicKey: string; privateKey: string };

export function generateVapidKeys(): VapidKeys {
  const ecdh = crypto.createECDH("prime256v1");
  ecdh.generateKeys();
  return { publicKey: ecdh.getPublicKey().toString("base64url"), privateKey: ecdh.getPrivateKey().toString("base64url") };
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
