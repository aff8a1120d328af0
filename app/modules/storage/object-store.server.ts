import type { Readable } from "node:stream";

/** One stored object as it is read back: its bytes as a stream, their count and type. */
export type StoredObject = { body: Readable; size: number; contentType: string };

/**
 * Where the app keeps files (a deck's PDF and its page images): a folder in DATA_DIR, or an S3-compatible bucket
 * that every instance shares. Keys are paths of lower-case segments (`decks/{id}/page-1-960.webp`); an object is
 * written whole or not at all, and a key once written is never rewritten with other bytes, so what is served from
 * it may be cached for ever.
 */
export interface ObjectStore {
  readonly kind: "disk" | "s3";
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The object, or null when nothing is stored under the key. */
  get(key: string): Promise<StoredObject | null>;
  /** Deletes what is stored under each key; a key with nothing under it is no error. */
  delete(keys: readonly string[]): Promise<void>;
  /** Every key that starts with the prefix (a folder such as `decks/{id}/`), for cleaning up after a deck. */
  list(prefix: string): Promise<string[]>;
  /** Fails with the store's own reason when it cannot be written (a missing bucket, refused keys, a read-only disk). */
  check(): Promise<void>;
}

const KEY = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/;

/** Refuses a key that could leave the store's folder or mean different things on disk and in S3. */
export function assertStorageKey(key: string): void {
  if (key.length > 512 || !KEY.test(key) || key.split("/").some((part) => part === "." || part === "..")) {
    throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
  }
}

/** A prefix is a key's first segments followed by a slash. */
export function assertStoragePrefix(prefix: string): void {
  if (!prefix.endsWith("/")) throw new Error(`Invalid storage prefix: ${JSON.stringify(prefix)}`);
  assertStorageKey(prefix.slice(0, -1));
}
