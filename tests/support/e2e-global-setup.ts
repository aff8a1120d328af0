import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { CHROMIUM_PATH } from "./chromium.js";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** End-to-end tests drive the production build in Debian's Chromium; both must be there. */
export default function prepareEndToEnd() {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: install Debian's package (apt-get install chromium).`);
  }
  if (!fs.existsSync(path.join(ROOT, "build/server/index.js"))) {
    const result = spawnSync(process.execPath, [path.join(ROOT, "node_modules/@react-router/dev/bin.js"), "build"], {
      cwd: ROOT,
      stdio: "inherit",
    });
    if (result.status !== 0) throw new Error("react-router build failed");
  }
}
