/** Relative times ('5 minutes ago') move on every 30 s in both renderers (times stay current). */
export const CLOCK_STEP_MS = 30_000;

/** Now, rounded down to the clock's step: what relative times are computed from. */
export const currentClockStep = () => Math.floor(Date.now() / CLOCK_STEP_MS) * CLOCK_STEP_MS;

/**
 * Calls `onTick` often enough to notice each step (every 5 s) and when the tab comes back; callers compare
 * `currentClockStep()` to redraw only when it changed. Returns the unsubscribe.
 */
export function subscribeToClock(onTick: () => void): () => void {
  const timer = setInterval(onTick, 5_000);
  document.addEventListener("visibilitychange", onTick);
  return () => {
    clearInterval(timer);
    document.removeEventListener("visibilitychange", onTick);
  };
}
