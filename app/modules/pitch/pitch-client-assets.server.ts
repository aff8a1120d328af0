/** The anonymous pitch page's client (decision 13), as the build emitted it. */
export { deckReaderScript, enhanceScript, pitchStyles, qrCodeScript, savedListScript, savedStyles, serviceWorkerScript } from "virtual:pitch-client-assets";

import { appIconSvg } from "~/modules/icons/app-icon-svg";

/**
 * `/favicon.svg` written into the shared documents themselves: a visitor who scans one code loads one
 * page, and a request of its own cost more in headers than the icon's compressed bytes in the page.
 */
export const inlineFavicon = `data:image/svg+xml,${appIconSvg(1, { rounded: true }).replace(/["#<>%]/g, encodeURIComponent)}`;
