import { useEffect, useMemo, useRef, useState } from "react";
import type { PublicWallEntry } from "~/modules/recognition/wall.server";

export type WallStats = { hiddenSupporters: number; signals: number };
export type LiveStatus = "connecting" | "live" | "reconnecting";

/** Waits before reconnecting after the 1st, 2nd, 3rd and every later failure (SPEC.md section 9). */
export const RECONNECT_DELAYS_MS = [1_000, 2_000, 5_000, 10_000] as const;

export function reconnectDelay(failures: number): number {
  return RECONNECT_DELAYS_MS[Math.min(Math.max(failures, 1), RECONNECT_DELAYS_MS.length) - 1]!;
}

const TYPES = new Set(["Intro", "Supporter", "Pilot"]);

/** Accepts only a well-formed entry from the stream (it is rendered as text, but shape still matters). */
export function parseWallEntry(raw: string): PublicWallEntry | null {
  try {
    const value = JSON.parse(raw) as Partial<PublicWallEntry>;
    if (
      typeof value.id !== "number" ||
      !Number.isFinite(value.id) ||
      typeof value.type !== "string" ||
      !TYPES.has(value.type) ||
      typeof value.displayName !== "string" ||
      typeof value.createdAt !== "string"
    ) {
      return null;
    }
    return {
      id: value.id,
      type: value.type,
      displayName: value.displayName,
      roleTags: Array.isArray(value.roleTags) ? value.roleTags.filter((tag): tag is string => typeof tag === "string") : [],
      message: typeof value.message === "string" ? value.message : null,
      createdAt: value.createdAt,
    };
  } catch {
    return null;
  }
}

function parseStats(raw: string): Partial<WallStats> | null {
  try {
    const value = JSON.parse(raw) as Partial<Record<keyof WallStats, unknown>>;
    const stats: Partial<WallStats> = {};
    if (typeof value.hiddenSupporters === "number" && Number.isFinite(value.hiddenSupporters)) stats.hiddenSupporters = value.hiddenSupporters;
    if (typeof value.signals === "number" && Number.isFinite(value.signals)) stats.signals = value.signals;
    return stats;
  } catch {
    return null;
  }
}

function time(entry: PublicWallEntry): number {
  const ms = Date.parse(entry.createdAt);
  return Number.isNaN(ms) ? 0 : ms;
}

/** Each id once (the first list wins), newest first by creation time, then by id. */
export function mergeWallEntries(...lists: PublicWallEntry[][]): PublicWallEntry[] {
  const byId = new Map<number, PublicWallEntry>();
  for (const list of lists) for (const entry of list) if (!byId.has(entry.id)) byId.set(entry.id, entry);
  return [...byId.values()].sort((a, b) => time(b) - time(a) || b.id - a.id);
}

const highestId = (entries: PublicWallEntry[]) => entries.reduce((max, entry) => Math.max(max, entry.id), 0);

/**
 * The Recognition Wall, kept live over Server-Sent Events (`/api/wall/{projectId}/stream?after={id}`):
 * `entry` events are prepended (deduplicated by id), `stats` events update the counts. On an error the
 * stream is closed and reopened after 1, 2, 5, then every 10 s, resuming after the highest id seen, so a
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

  const highestSeen = useRef(highestId(initial.entries));
  useEffect(() => {
    highestSeen.current = Math.max(highestSeen.current, highestId(entries));
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
        highestSeen.current = Math.max(highestSeen.current, entry.id);
        setStreamed((previous) => (previous.some((known) => known.id === entry.id) ? previous : [entry, ...previous]));
      });
      current.addEventListener("stats", (event) => {
        const stats = parseStats((event as MessageEvent<string>).data);
        if (stats) setStreamStats((previous) => ({ ...previous, ...stats }));
      });
      current.onerror = () => {
        // Take reconnection over from the browser, so the retry resumes after the highest id seen.
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
