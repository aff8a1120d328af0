import { useSyncExternalStore } from "react";

const MINUTE = 60_000;
/** Stands for "the server's clock, not known here" during hydration: the first client render replaces it. */
const HYDRATING = -1;

function currentMinute(): number {
  return Math.floor(Date.now() / MINUTE) * MINUTE;
}

function subscribe(onChange: () => void): () => void {
  // Checking every 10 s is cheap (React re-renders only when the minute changes) and keeps the minute
  // boundary within 10 s. A tab coming back from the background is brought up to date at once.
  const timer = setInterval(onChange, 10_000);
  document.addEventListener("visibilitychange", onChange);
  return () => {
    clearInterval(timer);
    document.removeEventListener("visibilitychange", onChange);
  };
}

function serverSnapshot(): number {
  return typeof window === "undefined" ? currentMinute() : HYDRATING;
}

/**
 * "Now", to the minute, for relative times ('5 minutes ago'). The server renders with its own clock; the
 * browser hydrates with a placeholder (times sit in elements with `suppressHydrationWarning`, so the server
 * text stays), then re-renders with its own clock right away and again every minute.
 */
export function useNow(): Date {
  const minute = useSyncExternalStore(subscribe, currentMinute, serverSnapshot);
  return new Date(minute === HYDRATING ? 0 : minute);
}
