/**
 * The viewer fingerprint sent with a scan (SPEC.md section 9: "the first 32 characters of an encoded
 * string of browser traits"), used to count unique viewers.
 *
 * Why more than traits: two phones of the same model, on the same OS version, language and time zone (a
 * conference full of them) produce the same trait string, so traits alone would count them as one viewer.
 * A random id kept per browser in localStorage separates them, while the traits keep the value stable for
 * browsers that clear storage between visits only partially. The traits and the id are hashed (SHA-256, first
 * 32 hex characters), so the server never sees the raw user agent list or the id itself.
 * When storage is unavailable (private mode, blocked cookies) an in-memory id is used: the value stays the
 * same for this page load, which is all "once per project per page load" tracking needs.
 */

export const VIEWER_ID_KEY = "pitchqr:viewer";

let memoryId: string | null = null;

function randomId(): string {
  if (typeof crypto !== "undefined" && typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The per-browser random id: from localStorage, created once; in memory when storage is unavailable. */
export function perBrowserId(storage: Pick<Storage, "getItem" | "setItem"> | null = safeLocalStorage()): string {
  try {
    if (storage) {
      const existing = storage.getItem(VIEWER_ID_KEY);
      if (existing) return existing;
      const created = randomId();
      storage.setItem(VIEWER_ID_KEY, created);
      // Reading it back proves it was stored (some browsers accept writes and drop them).
      if (storage.getItem(VIEWER_ID_KEY) === created) return created;
    }
  } catch {
    // Storage blocked or full: fall through to the in-memory id.
  }
  memoryId ??= randomId();
  return memoryId;
}

function safeLocalStorage(): Storage | null {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    return null;
  }
}

/** The browser traits, joined with '|'. Missing traits are empty, never 'undefined'. */
export function browserTraits(): string {
  const nav: Partial<Navigator> = typeof navigator === "undefined" ? {} : navigator;
  const scr: Partial<Screen> = typeof screen === "undefined" ? {} : screen;
  let timeZone = "";
  try {
    timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone ?? "";
  } catch {
    timeZone = "";
  }
  return [
    nav.userAgent ?? "",
    nav.language ?? "",
    (nav.languages ?? []).join(","),
    timeZone,
    `${scr.width ?? ""}x${scr.height ?? ""}`,
    String(scr.colorDepth ?? ""),
    String(nav.hardwareConcurrency ?? ""),
    nav.platform ?? "",
  ].join("|");
}

/**
 * 32 hex characters from four differently seeded 32-bit FNV-1a hashes. Only for pages served over plain
 * http (a LAN address), where browsers hide `crypto.subtle`: weaker than SHA-256, but still spreads
 * viewers apart and does not reveal the traits.
 */
export function fallbackHex32(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let out = "";
  for (const seed of [0x811c9dc5, 0x01000193, 0x9e3779b9, 0x85ebca6b]) {
    let hash = seed >>> 0;
    for (const byte of bytes) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
    out += hash.toString(16).padStart(8, "0");
  }
  return out;
}

/** First 32 hex characters of SHA-256 over `text` (the FNV fallback where `crypto.subtle` is missing). */
export async function sha256Hex32(text: string): Promise<string> {
  if (typeof crypto === "undefined" || !crypto.subtle) return fallbackHex32(text);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0"))
    .join("")
    .slice(0, 32);
}

/** The fingerprint: 32 hex characters over the traits and the per-browser id. */
export async function viewerFingerprint(): Promise<string> {
  return sha256Hex32(`${browserTraits()}|${perBrowserId()}`);
}
