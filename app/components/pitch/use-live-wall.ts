import { useEffect, useMemo, useRef, useState } from "react";
import type { PublicWallEntry } from "~/modules/recognition/wall.server";
import { highestSeq, mergeWallEntries, parseStats, parseWallEntry, reconnectDelay, type LiveStatus, type WallStats } from "./wall-model";

export { mergeWallEntries, parseWallEntry, reconnectDelay, RECONNECT_DELAYS_MS, type LiveStatus, type WallStats } from "./wall-model";

/**
 * The Recognition Wall, kept live over Server-Sent Events (`/api/wall/{projectId}/stream?after={seq}`):
 * `entry` events are prepended (deduplicated by id), `stats` events update the counts. On an error the
 * stream is closed and reopened after 1, 2, 5, then every 10 s, resuming after the highest wall number seen, so a
 * missed entry arrives exactly once; a successful open resets the wait. Closed on unmount and while the page
 * sits in the back/forward cache.
 *
 * The loader's data stays the base: when it is revalidated (after this visitor's own signal, say) its
 * entries merge in and its counts replace the stream's until the next `stats` event.
 */
export function useLiveWall(projectId: string, initial: { entries: PublicWallEntry[]; hiddenSupporters: number }, initialStats: { signals: number }) {
  const [streamed, setStreamed] = useState<PublicWallEntry[]>([]);
  const [streamStats, setStreamStats] = useState<Partial<WallStats> | null>(null);
  const [status, setStatus] = useState<LiveStatus>("connecting");

  // When the loader's numbers change, they are the newest word until the stream says otherwise.
  const baseStats = `${initial.hiddenSupporters}:${initialStats.signals}`;
  const [seenBaseStats, setSeenBaseStats] = useState(baseStats);
  if (seenBaseStats !== baseStats) {
    setSeenBaseStats(baseStats);
    setStreamStats(null);
  }

  const entries = useMemo(() => mergeWallEntries(streamed, initial.entries), [streamed, initial.entries]);

  const highestSeen = useRef(highestSeq(initial.entries));
  useEffect(() => {
    highestSeen.current = Math.max(highestSeen.current, highestSeq(entries));
  }, [entries]);

  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    let source: EventSource | null = null;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let stopped = false;

    const disconnect = () => {
      clearTimeout(retryTimer);
      retryTimer = undefined;
      source?.close();
      source = null;
    };

    const connect = () => {
      disconnect();
      if (stopped) return;
      const url = `/api/wall/${encodeURIComponent(projectId)}/stream?after=${highestSeen.current}`;
      const current = new EventSource(url);
      source = current;
      current.onopen = () => {
        failures = 0;
        setStatus("live");
      };
      current.addEventListener("entry", (event) => {
        const entry = parseWallEntry((event as MessageEvent<string>).data);
        if (!entry) return;
        highestSeen.current = Math.max(highestSeen.current, entry.seq);
        setStreamed((previous) => (previous.some((known) => known.id === entry.id) ? previous : [entry, ...previous]));
      });
      current.addEventListener("stats", (event) => {
        const stats = parseStats((event as MessageEvent<string>).data);
        if (stats) setStreamStats((previous) => ({ ...previous, ...stats }));
      });
      current.onerror = () => {
        // Take reconnection over from the browser, so the retry resumes after the highest wall number seen.
        if (source !== current) return;
        disconnect();
        failures += 1;
        setStatus("reconnecting");
        retryTimer = setTimeout(connect, reconnectDelay(failures));
      };
    };

    const onPageHide = () => disconnect();
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted && !stopped) connect();
    };

    connect();
    window.addEventListener("pagehide", onPageHide);
    window.addEventListener("pageshow", onPageShow);
    return () => {
      stopped = true;
      disconnect();
      window.removeEventListener("pagehide", onPageHide);
      window.removeEventListener("pageshow", onPageShow);
    };
  }, [projectId]);

  return {
    entries,
    hiddenSupporters: streamStats?.hiddenSupporters ?? initial.hiddenSupporters,
    signals: streamStats?.signals ?? initialStats.signals,
    status,
  };
}
