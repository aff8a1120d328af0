import type { StorageConfig } from "~/config.server";
import { createDiskStore } from "./disk-store.server";
import type { ObjectStore } from "./object-store.server";
import { createS3Store } from "./s3-store.server";

/** The store the configuration names: a folder (`STORAGE=disk`, the default: DATA_DIR/files) or a bucket (`STORAGE=s3`). */
export function openObjectStore(storage: StorageConfig): ObjectStore {
  return storage.kind === "s3" ? createS3Store(storage.s3) : createDiskStore(storage.dir);
}
