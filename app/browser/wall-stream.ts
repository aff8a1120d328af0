import type { PublicWallEntry } from "~/modules/recognition/wall.server";
import { parseStats, parseWallEntry, reconnectDelay, type WallStats } from "~/browser/wall-model";

export type WallStreamListener = {
  /** The highest wall number already shown: a (re)connection resumes after it, so a missed entry arrives exactly once. */
  highestSeen(): number;
  onEntry(entry: PublicWallEntry): void;
  onStats(stats: Partial<WallStats>): void;
  /** True once the stream is open, false after it failed (until it opens again). */
  onLive(live: boolean): void;
};

/**
 * The Recognition Wall's live stream (`/api/wall/{projectId}/stream?after={seq}`), for both renderers: `entry`
 * and `stats` events go to the listener; after an error the stream is closed and reopened after 1, 2, 5, then
 * every 10 s (a successful open resets the wait); it is closed while the page sits in the back/forward cache.
 * Returns the function that stops it for good.
 */
export function followWallStream(projectId: string, listener: WallStreamListener): () => void {
  if (typeof EventSource === "undefined") return () => undefined;
  let source: EventSource | null = null;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let stopped = false;

  const disconnect = () => {
    clearTimeout(retry);
    retry = undefined;
    source?.close();
    source = null;
  };

  const connect = () => {
    disconnect();
    if (stopped) return;
    const current = new EventSource(`/api/wall/${encodeURIComponent(projectId)}/stream?after=${listener.highestSeen()}`);
    source = current;
    current.onopen = () => {
      failures = 0;
      listener.onLive(true);
    };
    current.addEventListener("entry", (event) => {
      const entry = parseWallEntry((event as MessageEvent<string>).data);
      if (entry) listener.onEntry(entry);
    });
    current.addEventListener("stats", (event) => {
      const stats = parseStats((event as MessageEvent<string>).data);
      if (stats) listener.onStats(stats);
    });
    current.onerror = () => {
      // Reconnection is ours, not the browser's, so the retry resumes after the highest wall number seen.
      if (source !== current) return;
      disconnect();
      failures += 1;
      listener.onLive(false);
      retry = setTimeout(connect, reconnectDelay(failures));
    };
  };

  const onPageShow = (event: PageTransitionEvent) => event.persisted && connect();
  addEventListener("pagehide", disconnect);
  addEventListener("pageshow", onPageShow);
  connect();
  return () => {
    stopped = true;
    disconnect();
    removeEventListener("pagehide", disconnect);
    removeEventListener("pageshow", onPageShow);
  };
}
