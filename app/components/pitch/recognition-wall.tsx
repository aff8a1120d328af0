import { Handshake } from "lucide-react";
import { Link } from "react-router";
import type { RecognitionType } from "~/db/schema";
import type { PublicWallEntry } from "~/modules/recognition/wall.server";
import { formatPitchTime } from "~/modules/time/relative-time";
import { preloadFormsOnIntent } from "./lazy-forms";
import { DIALOG_LINK_STATE, type PitchDialogs } from "./use-pitch-dialogs";
import type { LiveStatus } from "./use-live-wall";

const TYPE_STYLES: Record<RecognitionType, string> = {
  Supporter: "bg-brand-50 text-brand-700 ring-brand-200",
  Intro: "bg-violet-50 text-violet-700 ring-violet-200",
  Pilot: "bg-emerald-50 text-emerald-700 ring-emerald-200",
};

const AVATAR_STYLES = [
  "bg-brand-100 text-brand-700",
  "bg-sky-100 text-sky-700",
  "bg-emerald-100 text-emerald-700",
  "bg-amber-100 text-amber-800",
  "bg-rose-100 text-rose-700",
  "bg-violet-100 text-violet-700",
];

export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0]!, words[words.length - 1]!] : words.slice(0, 1);
  return letters.map((word) => Array.from(word)[0]!.toUpperCase()).join("") || "?";
}

function avatarStyle(name: string): string {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) | 0;
  return AVATAR_STYLES[Math.abs(hash) % AVATAR_STYLES.length]!;
}

/** Entries shown before 'Show N more': the wall stays a section, not the whole page. */
const WALL_PREVIEW = 8;

export function additionalSupportersText(count: number): string {
  return `+ ${count} additional ${count === 1 ? "supporter" : "supporters"}`;
}

type RecognitionWallProps = {
  entries: PublicWallEntry[];
  hiddenSupporters: number;
  status: LiveStatus;
  now: Date;
  dialogs: PitchDialogs;
};

export function RecognitionWall({ entries, hiddenSupporters, status, now, dialogs }: RecognitionWallProps) {
  const empty = entries.length === 0 && hiddenSupporters === 0;
  return (
    <section aria-labelledby="wall-title" className="mx-auto max-w-6xl px-4">
      <div className="flex items-end justify-between gap-3">
        <div>
          <h2 id="wall-title" className="text-2xl font-bold tracking-tight text-slate-950">
            Recognition Wall
          </h2>
          <p className="mt-1 text-sm text-slate-600">Supporters, intros and pilots behind this project.</p>
        </div>
        {status === "live" ? (
          <span className="inline-flex shrink-0 items-center gap-1.5 rounded-full bg-emerald-50 px-2.5 py-1 text-xs font-semibold text-emerald-700 ring-1 ring-emerald-200">
            <span aria-hidden className="relative flex size-2">
              <span className="absolute inline-flex size-full animate-ping rounded-full bg-emerald-400 opacity-75 motion-reduce:animate-none" />
              <span className="relative inline-flex size-2 rounded-full bg-emerald-500" />
            </span>
            Live
          </span>
        ) : null}
      </div>

      {empty ? (
        <div className="mt-5 flex flex-col items-center rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-10 text-center">
          <span aria-hidden className="flex size-12 items-center justify-center rounded-full bg-brand-50 text-brand-600">
            <Handshake className="size-6" />
          </span>
          <p className="mt-4 font-semibold text-slate-900">No supporters yet</p>
          <p className="mt-1 max-w-sm text-sm text-slate-600">Be the first to back this project: signal your interest or offer an intro.</p>
          <Link
            to={dialogs.linkTo("signal")}
            state={DIALOG_LINK_STATE}
            preventScrollReset
            aria-haspopup="dialog"
            {...preloadFormsOnIntent}
            className="mt-5 inline-flex items-center rounded-xl bg-brand-600 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-brand-700"
          >
            Signal Interest
          </Link>
        </div>
      ) : (
        <div className="mt-5 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
          {entries.length ? (
            <ol aria-label="Wall entries, newest first" aria-live="polite" aria-relevant="additions" className="divide-y divide-slate-100">
              {entries.slice(0, WALL_PREVIEW).map((entry) => (
                <WallEntry key={entry.id} entry={entry} now={now} />
              ))}
            </ol>
          ) : null}
          {entries.length > WALL_PREVIEW ? (
            // A native disclosure: works before (and without) JavaScript.
            <details className="group border-t border-slate-100">
              <summary className="flex cursor-pointer list-none items-center justify-center gap-1 px-5 py-3 text-sm font-semibold text-brand-700 hover:bg-slate-50 group-open:hidden [&::-webkit-details-marker]:hidden">
                Show {entries.length - WALL_PREVIEW} more
              </summary>
              <ol aria-label="Earlier wall entries" className="divide-y divide-slate-100">
                {entries.slice(WALL_PREVIEW).map((entry) => (
                  <WallEntry key={entry.id} entry={entry} now={now} />
                ))}
              </ol>
            </details>
          ) : null}
          {hiddenSupporters > 0 ? (
            <p className={`bg-slate-50/70 px-5 py-3.5 text-center text-sm font-medium text-slate-600 ${entries.length ? "border-t border-slate-100" : ""}`}>
              {additionalSupportersText(hiddenSupporters)}
            </p>
          ) : null}
        </div>
      )}
    </section>
  );
}

function WallEntry({ entry, now }: { entry: PublicWallEntry; now: Date }) {
  return (
    <li className="flex gap-3.5 px-4 py-4 sm:px-5">
      <span aria-hidden className={`flex size-10 shrink-0 items-center justify-center rounded-full text-sm font-bold ${avatarStyle(entry.displayName)}`}>
        {initials(entry.displayName)}
      </span>
      <div className="min-w-0 flex-1">
        <div className="flex items-baseline justify-between gap-3">
          <span className="min-w-0 font-semibold break-words text-slate-900">{entry.displayName}</span>
          <time dateTime={entry.createdAt} suppressHydrationWarning className="shrink-0 text-xs text-slate-500">
            {formatPitchTime(entry.createdAt, now)}
          </time>
        </div>
        <ul aria-label="Type and roles" className="mt-1 flex flex-wrap items-center gap-1.5">
          <li className={`rounded-full px-2 py-0.5 text-[11px] font-semibold ring-1 ring-inset ${TYPE_STYLES[entry.type]}`}>{entry.type}</li>
          {entry.roleTags.map((tag) => (
            <li key={tag} className="rounded-full bg-slate-100 px-2 py-0.5 text-[11px] font-medium text-slate-600">
              {tag}
            </li>
          ))}
        </ul>
        {entry.message ? <p className="mt-2 text-[15px] leading-relaxed break-words whitespace-pre-line text-slate-700">“{entry.message}”</p> : null}
      </div>
    </li>
  );
}
