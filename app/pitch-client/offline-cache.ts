/**
 * The service worker's cache of visited pitch pages (decision 13). The React app deletes it whenever someone
 * is signed in, so a founder is never shown the anonymous copy of a page, even offline.
 */
export const PITCH_OFFLINE_CACHE = "pitchqr-pitch-v1";
