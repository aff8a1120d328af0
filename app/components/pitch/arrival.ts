import { trackScanOnce } from "./track-scan";

type NavigationEntry = PerformanceNavigationTiming & { deliveryType?: string; activationStart?: number };

/** Served ahead of the tap (a speculation rules prefetch or a prerender): the door did not count it (decision 51). */
function servedAhead(): boolean {
  const navigation = performance.getEntriesByType?.("navigation")[0] as NavigationEntry | undefined;
  return navigation?.deliveryType === "navigational-prefetch" || (navigation?.activationStart ?? 0) > 0;
}

/** Runs `shown` now, or once a page being prerendered is actually shown. */
function whenShown(shown: () => void): void {
  if ((document as Document & { prerendering?: boolean }).prerendering) document.addEventListener("prerenderingchange", shown, { once: true });
  else shown();
}

/**
 * What the pitch page does once it is shown, in both renderers (decision 51): a visit the door did not count (a
 * client-side navigation, `countHere`; a page fetched ahead of the tap) is counted once by `track-scan`, then the
 * address drops `?qr=`, so a link shared from the page or the address bar is the plain link and credits no event.
 * Where the browser keeps no cookies the code stays: its reloads are how the server knows which code brought it.
 */
export function settleArrival(projectId: string, options: { countHere: boolean; replaceAddress: (address: string) => void }): void {
  const address = new URL(location.href);
  const qrCodeId = address.searchParams.get("qr");
  whenShown(() => {
    if (options.countHere || servedAhead()) trackScanOnce(projectId, qrCodeId);
    if (qrCodeId === null || !navigator.cookieEnabled) return;
    address.searchParams.delete("qr");
    options.replaceAddress(address.pathname + address.search + address.hash);
  });
}
