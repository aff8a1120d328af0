import { useSyncExternalStore } from "react";
import { currentClockStep, subscribeToClock } from "~/pitch-behaviour/clock";
import { useHydrated } from "./use-hydrated";

/** Stands for "the server's clock, not known here" during hydration: the first client render replaces it. */
const HYDRATING = -1;


/**
 * "Now" for relative times ('5 minutes ago'); right after hydration the browser's clock takes over, then the value
 * moves every 30 s.
 * - With the loader's `serverNow`, the server render and the hydration render both use it, so they produce the
 *   same text (no hydration mismatch).
 * - Without it (a cached page such as the pitch page), the server renders with its own clock and the browser
 *   hydrates with a placeholder: such times sit in elements with `suppressHydrationWarning`, so the server text
 *   stays until the first client render.
 */
export function useClock(serverNow?: string): Date {
  const ms = useSyncExternalStore(subscribeToClock, currentClockStep, () =>
    serverNow !== undefined ? Date.parse(serverNow) : typeof window === "undefined" ? currentClockStep() : HYDRATING,
  );
  return new Date(ms === HYDRATING ? 0 : ms);
}

/**
 * The time zone to show dates in: UTC while the server renders and the browser hydrates (both agree on it),
 * then the viewer's own. Dates shown with it change on the first client render, which React patches.
 */
export function useViewerTimeZone(): string | undefined {
  return useHydrated() ? undefined : "UTC";
}
