/**
 * The visitor's saved pitches, kept in this browser's localStorage: no account, nothing on the server
 * but a count. Pure functions over a storage, so the pitch page, `/saved` and the tests share them. Whatever the
 * storage holds is read defensively: another tab, an older build or a person with the dev tools may have written
 * anything there, and a bad entry is skipped, never an error.
 */

export const SAVED_LIST_KEY = "pitchqr:saved";
/** The saved list's page, outside the pitch pages' service worker scope: it has a registration of its own. */
export const SAVED_LIST_PATH = "/saved";
/** What `/saved` shows for a pitch saved from its plain link (or while the event could not be asked). */
export const DIRECT_VIA = "Direct";

export type SavedPitch = {
  slug: string;
  projectId: string;
  title: string;
  oneLiner: string;
  /** The plain `/pitch/{slug}` address, never with `?qr=`. */
  url: string;
  savedAt: string;
  /** The event's name (the QR code's event tag, else its label) or `Direct`. */
  via: string;
  /** The QR code the page was opened through, kept until the server has named its event. */
  qrCodeId: string | null;
  /** Whether the server has counted this save: an offline save is sent again once the page is online. */
  counted: boolean;
};

type ReadableStorage = Pick<Storage, "getItem">;

/** This browser's localStorage, or null where it is blocked (some private modes throw on access). */
export function savedListStorage(): Storage | null {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    return null;
  }
}
type WritableStorage = Pick<Storage, "getItem" | "setItem">;

const isText = (value: unknown): value is string => typeof value === "string";

function savedPitchOf(value: unknown): SavedPitch | null {
  if (!value || typeof value !== "object") return null;
  const entry = value as Record<string, unknown>;
  const { slug, projectId, title, oneLiner, savedAt, via } = entry;
  if (!isText(slug) || !isText(projectId) || !isText(title) || !isText(savedAt) || Number.isNaN(Date.parse(savedAt))) return null;
  return {
    slug,
    projectId,
    title,
    oneLiner: isText(oneLiner) ? oneLiner : "",
    url: pitchPath(slug),
    savedAt,
    via: isText(via) && via ? via : DIRECT_VIA,
    qrCodeId: isText(entry.qrCodeId) ? entry.qrCodeId : null,
    counted: entry.counted === true,
  };
}

export const pitchPath = (slug: string) => `/pitch/${encodeURIComponent(slug)}`;

/** The saved pitches, newest first, one per pitch; an unreadable store is an empty list. */
export function readSavedList(storage: ReadableStorage | null): SavedPitch[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(storage?.getItem(SAVED_LIST_KEY) ?? "[]");
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  const bySlug = new Map<string, SavedPitch>();
  for (const pitch of parsed.map(savedPitchOf)) {
    if (!pitch) continue;
    const kept = bySlug.get(pitch.slug);
    if (!kept || kept.savedAt < pitch.savedAt) bySlug.set(pitch.slug, pitch);
  }
  return [...bySlug.values()].sort((a, b) => Date.parse(b.savedAt) - Date.parse(a.savedAt));
}

/** Stores the list; resolves false when the browser refuses (private mode, storage full). */
export function writeSavedList(storage: WritableStorage | null, list: readonly SavedPitch[]): boolean {
  try {
    if (!storage) return false;
    storage.setItem(SAVED_LIST_KEY, JSON.stringify(list));
    return true;
  } catch {
    return false;
  }
}

/** The list with `pitch` first (saving a pitch again moves it to the top with its new time). */
export function withPitchSaved(list: readonly SavedPitch[], pitch: SavedPitch): SavedPitch[] {
  return [pitch, ...list.filter((saved) => saved.slug !== pitch.slug)];
}

export function withoutPitch(list: readonly SavedPitch[], slug: string): SavedPitch[] {
  return list.filter((saved) => saved.slug !== slug);
}

export function isPitchSaved(list: readonly SavedPitch[], slug: string): boolean {
  return list.some((saved) => saved.slug === slug);
}

/** The list after the server named the save's event and counted it. */
export function withSaveCounted(list: readonly SavedPitch[], slug: string, via: string): SavedPitch[] {
  return list.map((saved) => (saved.slug === slug ? { ...saved, via: via || DIRECT_VIA, counted: true } : saved));
}
