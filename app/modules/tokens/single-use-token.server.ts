import crypto from "node:crypto";

/**
 * The tokens mailed or shown once in a link (sign-up and team invitations, booth links, address confirmations):
 * 256 random bits, base64url. Only the token's hash is stored, so a table alone opens nothing; a presented token
 * is looked up by its hash.
 */
export type SingleUseToken = { token: string; hash: string };

/** A new token and the hash to store for it. */
export function newSingleUseToken(): SingleUseToken {
  const token = crypto.randomBytes(32).toString("base64url");
  return { token, hash: hashSingleUseToken(token) };
}

/** The stored form of a token: its sha256 in hex. */
export function hashSingleUseToken(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}
