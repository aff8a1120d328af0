import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { assertStorageKey, assertStoragePrefix, type ObjectStore, type StoredObject } from "./object-store.server";

/**
 * Files in a folder (DATA_DIR/files by default), for one instance or several that share the folder. A write goes
 * to a temporary name beside the file and is renamed into place, so a reader never sees half a file; the content
 * type is kept in a sidecar `.type` file written first.
 */
export function createDiskStore(root: string): ObjectStore {
  const fileOf = (key: string) => {
    assertStorageKey(key);
    return path.join(root, ...key.split("/"));
  };

  async function writeWhole(file: string, data: Buffer | string) {
    const temporary = `${file}.${crypto.randomBytes(6).toString("hex")}.tmp`;
    await fsp.writeFile(temporary, data);
    await fsp.rename(temporary, file);
  }

  return {
    kind: "disk",
    async put(key, body, contentType) {
      const file = fileOf(key);
      await fsp.mkdir(path.dirname(file), { recursive: true });
      await writeWhole(`${file}.type`, contentType);
      await writeWhole(file, body);
    },
    async get(key): Promise<StoredObject | null> {
      const file = fileOf(key);
      let handle: fsp.FileHandle;
      try {
        handle = await fsp.open(file, "r");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
      try {
        const { size } = await handle.stat();
        const contentType = await fsp.readFile(`${file}.type`, "utf8").catch(() => "application/octet-stream");
        return { body: handle.createReadStream(), size, contentType };
      } catch (error) {
        await handle.close();
        throw error;
      }
    },
    async delete(keys) {
      for (const key of keys) {
        const file = fileOf(key);
        await fsp.rm(file, { force: true });
        await fsp.rm(`${file}.type`, { force: true });
      }
    },
    async list(prefix) {
      assertStoragePrefix(prefix);
      const folder = path.join(root, ...prefix.slice(0, -1).split("/"));
      const entries = await fsp.readdir(folder, { recursive: true, withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return [];
        throw error;
      });
      return entries
        .filter((entry) => entry.isFile() && !entry.name.endsWith(".type") && !entry.name.endsWith(".tmp"))
        .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
        .sort();
    },
    async check() {
      fs.mkdirSync(root, { recursive: true });
      await fsp.access(root, fs.constants.W_OK);
    },
  };
}
