import { ArrowUpRight, Play } from "lucide-react";
import { useState, type ReactNode } from "react";
import { useHydrated } from "~/components/ui/use-hydrated";
import type { VideoSource } from "./video-url";

/**
 * The pitch video. YouTube, Vimeo and Loom show a facade (no request to their hosts, no thumbnail) until
 * tapped, then their player; any other http(s) link is a plain external link; no URL shows nothing.
 */
export function VideoBlock({ source, title }: { source: VideoSource; title: string }) {
  const [playing, setPlaying] = useState(false);
  const hydrated = useHydrated();
  if (!source) return null;

  if (source.kind === "link") {
    return (
      <a
        href={source.url}
        target="_blank"
        rel="noopener noreferrer"
        className="group inline-flex items-center gap-3 rounded-2xl border border-slate-200 bg-white py-2.5 pl-2.5 pr-4 text-sm font-semibold text-slate-800 shadow-sm hover:border-slate-300 hover:bg-slate-50"
      >
        <span aria-hidden className="flex size-9 items-center justify-center rounded-full bg-slate-900 text-white">
          <Play className="ml-0.5 size-4 fill-current" />
        </span>
        Watch video
        <ArrowUpRight aria-hidden className="size-4 text-slate-500 group-hover:text-slate-700" />
        <span className="sr-only">(opens in a new tab)</span>
      </a>
    );
  }

  return (
    <div className="relative aspect-video w-full overflow-hidden rounded-2xl bg-slate-900 shadow-lg ring-1 ring-slate-900/10">
      {playing ? (
        <iframe
          src={source.embedUrl}
          title={`${title}: video`}
          className="absolute inset-0 size-full"
          allow="autoplay; fullscreen; picture-in-picture; encrypted-media"
          allowFullScreen
          referrerPolicy="strict-origin-when-cross-origin"
        />
      ) : (
        // Before JavaScript runs, the facade is a link to the video on its own site.
        <Facade
          hydrated={hydrated}
          href={source.watchUrl}
          embedUrl={source.embedUrl}
          title={`${title}: video`}
          onPlay={() => setPlaying(true)}
          className="group absolute inset-0 flex size-full flex-col items-center justify-center gap-3 bg-[radial-gradient(120%_120%_at_20%_0%,var(--color-brand-600)_0%,#1e1b4b_55%,#020617_100%)] text-white"
        >
          <span
            aria-hidden
            className="flex size-16 items-center justify-center rounded-full bg-white/95 text-brand-700 shadow-xl ring-8 ring-white/15 transition-transform duration-200 group-hover:scale-105 sm:size-20"
          >
            <Play className="ml-1 size-7 fill-current sm:size-8" />
          </span>
          <span className="text-sm font-semibold tracking-wide">
            Play video <span className="font-normal text-white/70">· {source.provider}</span>
          </span>
        </Facade>
      )}
    </div>
  );
}

type FacadeProps = { hydrated: boolean; href: string; embedUrl: string; title: string; onPlay: () => void; className: string; children: ReactNode };

function Facade({ hydrated, href, embedUrl, title, onPlay, className, children }: FacadeProps) {
  if (!hydrated) {
    // The embed address lets the anonymous page's enhancement module play it in place (decision 13).
    return (
      <a href={href} target="_blank" rel="noopener noreferrer" className={className} data-video-embed={embedUrl} data-video-title={title}>
        {children}
      </a>
    );
  }
  return (
    <button type="button" onClick={onPlay} className={className}>
      {children}
    </button>
  );
}
