/** The anonymous pitch page's client (decision 13), as the build emitted it. */
export { enhanceScript, pitchStyles, qrCodeScript, savedListScript, savedStyles, serviceWorkerScript } from "virtual:pitch-client-assets";
