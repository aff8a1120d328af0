import { PUSH_WORKER_SCRIPT } from "~/modules/founder-alerts/push-worker";

/** GET /project/push-worker.js: the founder workspace's push-only service worker (decision 56). */
export function loader() {
  return new Response(PUSH_WORKER_SCRIPT, {
    headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-cache" },
  });
}
