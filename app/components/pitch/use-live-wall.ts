import { useEffect, useMemo, useRef, useState } from "react";
import type { PublicWallEntry } from "~/modules/recognition/wall.server";
import { followWallStream } from "~/browser/wall-stream";
import { highestSeq, mergeWallEntries, type LiveStatus, type WallStats } from "~/browser/wall-model";

export { mergeWallEntries, parseWallEntry, reconnectDelay, RECONNECT_DELAYS_MS, type LiveStatus, type WallStats } from "~/browser/wall-model";

/**
 * The Recognition Wall, kept live over its stream (`followWallStream`, as the anonymous page's module does):
 * entries are prepended (deduplicated by id), `stats` events update the counts; closed on unmount.
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

  useEffect(
    () =>
      followWallStream(projectId, {
        highestSeen: () => highestSeen.current,
        onLive: (live) => setStatus(live ? "live" : "reconnecting"),
        onEntry(entry) {
          highestSeen.current = Math.max(highestSeen.current, entry.seq);
          setStreamed((previous) => (previous.some((known) => known.id === entry.id) ? previous : [entry, ...previous]));
        },
        onStats: (stats) => setStreamStats((previous) => ({ ...previous, ...stats })),
      }),
    [projectId],
  );

  return {
    entries,
    hiddenSupporters: streamStats?.hiddenSupporters ?? initial.hiddenSupporters,
    signals: streamStats?.signals ?? initialStats.signals,
    status,
  };
}
