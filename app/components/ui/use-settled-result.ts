import { useEffect, useEffectEvent, useRef } from "react";

/**
 * Calls `handle` once for each new result of a form submission, after the submission has settled (the fetcher or
 * navigation is idle again): a toast is shown once, not again on every re-render or revalidation.
 */
export function useSettledResult<Result>(result: Result | null | undefined, settled: boolean, handle: (result: Result) => void): void {
  const handled = useRef<Result | null>(null);
  const onResult = useEffectEvent((next: Result) => {
    if (handled.current === next) return;
    handled.current = next;
    handle(next);
  });
  useEffect(() => {
    if (settled && result) onResult(result);
  }, [settled, result]);
}
