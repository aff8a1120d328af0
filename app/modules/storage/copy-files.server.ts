import { buffer } from "node:stream/consumers";
import type { ObjectStore } from "./object-store.server";

export type CopyReport = { copied: number; alreadyThere: number; bytes: number };

/**
 * Copies every object under `prefix` from one store to another (the disk folder into a bucket, when a deployment
 * moves to S3), each with its content type. An object already in the target under the same key is left alone:
 * keys are never rewritten, so it is the same file, and a copy stopped half way is finished by running it again.
 */
export async function copyStoredFiles(from: ObjectStore, to: ObjectStore, prefix: string, onCopied?: (key: string) => void): Promise<CopyReport> {
  const report: CopyReport = { copied: 0, alreadyThere: 0, bytes: 0 };
  const there = new Set(await to.list(prefix));
  for (const key of await from.list(prefix)) {
    if (there.has(key)) {
      report.alreadyThere += 1;
      continue;
    }
    const object = await from.get(key);
    if (!object) continue;
    const bytes = await buffer(object.body);
    await to.put(key, bytes, object.contentType);
    report.copied += 1;
    report.bytes += bytes.length;
    onCopied?.(key);
  }
  return report;
}
