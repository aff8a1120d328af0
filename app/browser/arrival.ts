type NavigationEntry = PerformanceNavigationTiming & { deliveryType?: string; activationStart?: number };

/** Served ahead of the tap (a speculation rules prefetch or a prerender): the door did not count it (decision 52). */
function servedAhead(): boolean {
  const navigation = performance.getEntriesByType?.("navigation")[0] as NavigationEntry | undefined;
  return navigation?.deliveryType === "navigational-prefetch" || (navigation?.activationStart ?? 0) > 0;
}

/** Runs `shown` now, or once a page being prerendered is actually shown. */
function whenShown(shown: () => void): void {
  if ((document as Document & { prerendering?: boolean }).prerendering) document.addEventListener("prerenderingchange", shown, { once: true });
  else shown();
}

/** The spec's `track-scan`, once: fire-and-forget, never slows or breaks the page. */
function reportShown(projectId: string, qrCodeId: string | null): void {
  fetch("/api/functions/track-scan", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ projectId, qrCodeId }),
    keepalive: true,
    credentials: "same-origin",
  }).catch((error: unknown) => console.warn("Scan tracking failed", error));
}

/**
 * Whether this browser keeps the site's cookies. Not `navigator.cookieEnabled`: Chromium answers true there even
 * when its "Don't allow sites to save data" blocks them. A first-party probe set and read back, then deleted.
 */
function keepsCookies(): boolean {
  document.cookie = "pitchqr_probe=1; path=/; SameSite=Lax";
  const kept = document.cookie.includes("pitchqr_probe=1");
  document.cookie = "pitchqr_probe=; path=/; max-age=0; SameSite=Lax";
  return kept;
}

const settled = new Set<string>();

/**
 * What the pitch page does once it is shown, in both renderers (decision 52): a page fetched ahead of the tap,
 * which the door did not count, is counted once through `track-scan` (the viewer cookie the prefetch was given
 * says who). The address keeps `?qr=` while the visitor is on the page, so an in-app browser's "Open in Chrome"
 * (which opens the address as it stands) still arrives through the event's code; as the page is left, the
 * history entry drops it, so coming back to it from history or a restored tab is the plain link. Where the
 * browser keeps no cookies the code stays there too: its reloads are how the server knows which code brought it.
 */
export function settleArrival(projectId: string): void {
  if (settled.has(projectId)) return;
  settled.add(projectId);
  const address = new URL(location.href);
  const qrCodeId = address.searchParams.get("qr");
  if (qrCodeId) document.documentElement.dataset.arrivalQr = qrCodeId;
  whenShown(() => {
    if (servedAhead()) reportShown(projectId, qrCodeId);
    if (qrCodeId === null || !keepsCookies()) return;
    addEventListener("pagehide", () => {
      const current = new URL(location.href);
      if (current.searchParams.get("qr") !== qrCodeId) return;
      current.searchParams.delete("qr");
      // The page is going away: the history entry changes, not the page (either renderer's router included).
      history.replaceState(history.state, "", current.pathname + current.search + current.hash);
    });
  });
}

/** The `?qr=` code this page was opened with, also once the address has dropped it (a Save credits the event). */
export function arrivalQrCodeId(): string | null {
  return document.documentElement.dataset.arrivalQr || new URLSearchParams(location.search).get("qr") || null;
}
