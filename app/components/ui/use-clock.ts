import { useSyncExternalStore } from "react";
import { currentClockStep, subscribeToClock } from "~/browser/clock";
import { useRouteLoaderData } from "react-router";
import { FALLBACK_TIME_ZONE } from "~/modules/time/founder-zone";
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
 * The zone every date on a founder's screen is shown in (decision 53): the account's, from the root loader, so
 * the server render and the browser agree and a founder travelling with a laptop still reads their own clock.
 */
export function useFounderTimeZone(): string {
  const root = useRouteLoaderData("root") as { user?: { timeZone?: string } | null } | undefined;
  return root?.user?.timeZone ?? FALLBACK_TIME_ZONE;
}

/** The browser's own zone once React runs in it ('' on the server and while hydrating): what sign-up sends. */
export function useBrowserTimeZone(): string {
  return useHydrated() ? (Intl.DateTimeFormat().resolvedOptions().timeZone ?? "") : "";
}
