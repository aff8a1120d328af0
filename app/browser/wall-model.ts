import type { RecognitionType } from "~/db/schema";
import type { PublicWallEntry } from "~/modules/recognition/wall.server";
import { pluralWord } from "~/modules/formats/counts";

/*
 * The Recognition Wall's rules and looks, without React: shared by the React page (`recognition-wall.tsx`,
 * `use-live-wall.ts`) and the anonymous page's enhancement module (decision 13).
 */

export type WallStats = { hiddenSupporters: number; signals: number };
export type LiveStatus = "connecting" | "live" | "reconnecting";

/** Waits before reconnecting after the 1st, 2nd, 3rd and every later failure. */
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
      typeof value.seq !== "number" ||
      !Number.isFinite(value.seq) ||
      typeof value.type !== "string" ||
      !TYPES.has(value.type) ||
      typeof value.displayName !== "string" ||
      typeof value.createdAt !== "string"
    ) {
      return null;
    }
    return {
      id: value.id,
      seq: value.seq,
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

export function parseStats(raw: string): Partial<WallStats> | null {
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

/** Each id once (the first list wins), newest first: by wall number, the order entries were committed in. */
export function mergeWallEntries(...lists: PublicWallEntry[][]): PublicWallEntry[] {
  const byId = new Map<number, PublicWallEntry>();
  for (const list of lists) for (const entry of list) if (!byId.has(entry.id)) byId.set(entry.id, entry);
  return [...byId.values()].sort((a, b) => b.seq - a.seq);
}

/** The stream's cursor: the highest wall number among these entries. */
export const highestSeq = (entries: PublicWallEntry[]) => entries.reduce((max, entry) => Math.max(max, entry.seq), 0);

export const TYPE_STYLES: Record<RecognitionType, string> = {
  Supporter: "bg-brand-50 text-brand-700 ring-brand-200",
  Intro: "bg-violet-50 text-violet-700 ring-violet-200",
  Pilot: "bg-emerald-50 text-emerald-700 ring-emerald-200",
};

export const AVATAR_STYLES = [
  "bg-brand-100 text-brand-700",
  "bg-sky-100 text-sky-700",
  "bg-emerald-100 text-emerald-700",
  "bg-amber-100 text-amber-800",
  "bg-rose-100 text-rose-700",
  "bg-violet-100 text-violet-700",
];

export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0]!, words[words.length - 1]!] : words.slice(0, 1);
  return letters.map((word) => Array.from(word)[0]!.toUpperCase()).join("") || "?";
}

export function avatarStyle(name: string): string {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) | 0;
  return AVATAR_STYLES[Math.abs(hash) % AVATAR_STYLES.length]!;
}

/** Entries shown before 'Show N more': the wall stays a section, not the whole page. */
export const WALL_PREVIEW = 8;

export function additionalSupportersText(count: number): string {
  return `+ ${count} additional ${pluralWord(count, "supporter")}`;
}

/** The classes of a wall entry's parts, so an entry added by the live stream looks like a rendered one. */
export const WALL_ENTRY_CLASSES = {
  item: "flex gap-3.5 px-4 py-4 sm:px-5",
  avatar: "flex size-10 shrink-0 items-center justify-center rounded-full text-sm font-bold",
  body: "min-w-0 flex-1",
  heading: "flex items-baseline justify-between gap-3",
  name: "min-w-0 font-semibold break-words text-slate-900",
  time: "shrink-0 text-xs text-slate-500",
  tags: "mt-1 flex flex-wrap items-center gap-1.5",
  type: "rounded-full px-2 py-0.5 text-[11px] font-semibold ring-1 ring-inset",
  role: "rounded-full bg-slate-100 px-2 py-0.5 text-[11px] font-medium text-slate-600",
  message: "mt-2 text-[15px] leading-relaxed break-words whitespace-pre-line text-slate-700",
} as const;

/** The classes of the wall's list, so the live stream can turn the empty state into a list. */
export const WALL_LIST_CLASSES = {
  container: "mt-5 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm",
  list: "divide-y divide-slate-100",
  details: "group border-t border-slate-100",
  summary:
    "flex cursor-pointer list-none items-center justify-center gap-1 px-5 py-3 text-sm font-semibold text-brand-700 hover:bg-slate-50 group-open:hidden [&::-webkit-details-marker]:hidden",
  hiddenSupporters: "bg-slate-50/70 px-5 py-3.5 text-center text-sm font-medium text-slate-600",
} as const;
