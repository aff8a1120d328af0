import { buildIfStale } from "../../scripts/build-if-stale.js";
import { requireChromium } from "./chromium.js";

/** End-to-end tests drive the production build in a local Chromium; both must be there (built once, before any server starts). */
export default function prepareEndToEnd() {
  requireChromium();
  if (!buildIfStale()) throw new Error("react-router build failed");
}
