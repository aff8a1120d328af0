import { methodNotAllowed } from "~/modules/http/api.server";

/** POST is answered by Express (server/track-scan.ts); any other method lands here. */
export function loader() {
  return methodNotAllowed();
}

export function action() {
  return methodNotAllowed();
}
