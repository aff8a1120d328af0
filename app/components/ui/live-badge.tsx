import { useEffect, useRef } from "react";
import { replayLivePing } from "~/browser/live-ping";

/**
 * Shown while a live event stream is open (the pitch page's wall, the founder's activity feed). `latest` names the
 * newest item shown: when it changes the dot pings again.
 */
export function LiveBadge({ latest }: { latest?: string | number }) {
  const badge = useRef<HTMLSpanElement>(null);
  const seen = useRef(latest);
  useEffect(() => {
    if (seen.current === latest) return;
    seen.current = latest;
    replayLivePing(badge.current);
  }, [latest]);
  return (
    <span ref={badge} data-live-badge className="inline-flex shrink-0 items-center gap-1.5 rounded-full bg-emerald-50 px-2.5 py-1 text-xs font-semibold text-emerald-700 ring-1 ring-emerald-200">
      <span aria-hidden className="relative flex size-2">
        <span data-live-ping className="absolute inline-flex size-full animate-ping rounded-full bg-emerald-400 opacity-75 [animation-iteration-count:3] motion-reduce:animate-none" />
        <span className="relative inline-flex size-2 rounded-full bg-emerald-500" />
      </span>
      Live
    </span>
  );
}
