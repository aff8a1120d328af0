import fs from "node:fs";
import { buildIfStale } from "../../scripts/build-if-stale.js";
import { CHROMIUM_PATH } from "./chromium.js";

/** End-to-end tests drive the production build in Debian's Chromium; both must be there (built once, before any server starts). */
export default function prepareEndToEnd() {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: install Debian's package (apt-get install chromium).`);
  }
  if (!buildIfStale()) throw new Error("react-router build failed");
}
