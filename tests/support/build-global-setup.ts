import { buildIfStale } from "../../scripts/build-if-stale.js";

/** Tests that start the built app (without a browser) need a fresh production build, made once before any server starts. */
export default function prepareBuild() {
  if (!buildIfStale()) throw new Error("react-router build failed");
}
