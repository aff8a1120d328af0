import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe } from "vitest";
import { createDiskStore } from "~/modules/storage/disk-store.server";
import type { ObjectStore } from "~/modules/storage/object-store.server";
import { createS3Store, type S3Settings } from "~/modules/storage/s3-store.server";

/** A real S3-compatible server (s3rver) on a free port, its objects in a temporary folder, with one bucket made. */
export async function startS3Server(bucket = "pitchqr-test"): Promise<{ settings: S3Settings; stop: () => Promise<void> }> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "pitchqr-s3-"));
  const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = (await server.run()) as { port: number };
  return {
    settings: {
      bucket,
      region: "us-east-1",
      endpoint: `http://127.0.0.1:${port}`,
      forcePathStyle: true,
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    },
    async stop() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

export type StoreKind = ObjectStore["kind"];

/** One suite over every store the app can keep files in: a folder, and a bucket on a real S3-compatible server. */
export function describeEachStore(name: string, suite: (get: () => ObjectStore, kind: StoreKind) => void) {
  describe.each(["disk", "s3"] as const)(`${name} [%s]`, (kind) => {
    let store: ObjectStore | undefined;
    let stop: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      if (kind === "disk") {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pitchqr-files-"));
        store = createDiskStore(dir);
        stop = async () => fs.rmSync(dir, { recursive: true, force: true });
      } else {
        const server = await startS3Server();
        store = createS3Store(server.settings);
        stop = server.stop;
      }
    });
    afterAll(async () => {
      await stop?.();
    });
    suite(() => {
      if (!store) throw new Error("test store not ready");
      return store;
    }, kind);
  });
}
