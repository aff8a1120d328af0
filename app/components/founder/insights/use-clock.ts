import { useSyncExternalStore } from "react";
import { useHydrated } from "~/components/pitch/use-hydrated";

/** Relative times move on every 30 s (SPEC.md asks for times that stay current; 30 s keeps 'just now' honest). */
const STEP = 30_000;

function subscribe(onChange: () => void): () => void {
  // Cheap: React re-renders only when the 30 s step changes. A tab coming back is brought up to date at once.
  const timer = setInterval(onChange, 5_000);
  document.addEventListener("visibilitychange", onChange);
  return () => {
    clearInterval(timer);
    document.removeEventListener("visibilitychange", onChange);
  };
}

const clientSnapshot = () => Math.floor(Date.now() / STEP) * STEP;

/**
 * "Now" for relative times. The server render and the hydration render both use the loader's `serverNow`, so
 * they produce the same text (no hydration mismatch); right after hydration the browser's clock takes over,
 * then the value moves every 30 s.
 */
export function useClock(serverNow: string): Date {
  const ms = useSyncExternalStore(subscribe, clientSnapshot, () => Date.parse(serverNow));
  return new Date(ms);
}

/**
 * The time zone to show dates in: UTC while the server renders and the browser hydrates (both agree on it),
 * then the viewer's own. Dates shown with it change on the first client render, which React patches.
 */
export function useViewerTimeZone(): string | undefined {
  return useHydrated() ? undefined : "UTC";
}
