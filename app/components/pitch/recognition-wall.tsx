import { Handshake } from "lucide-react";
import { Link } from "react-router";
import { LiveBadge } from "~/components/ui/live-badge";
import type { PublicWallEntry } from "~/modules/recognition/wall.server";
import { formatPitchTime } from "~/modules/time/relative-time";
import { dialogLink, type PitchDialogs } from "./use-pitch-dialogs";
import { additionalSupportersText, avatarStyle, initials, TYPE_STYLES, WALL_ENTRY_CLASSES as C, WALL_LIST_CLASSES, WALL_PREVIEW, type LiveStatus } from "~/browser/wall-model";

export { additionalSupportersText, initials } from "~/browser/wall-model";

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
    <section aria-labelledby="wall-title" data-live-wall className="mx-auto max-w-6xl px-4">
      <div data-wall-header className="flex items-end justify-between gap-3">
        <div>
          <h2 id="wall-title" className="text-2xl font-bold tracking-tight text-slate-950">
            Recognition Wall
          </h2>
          <p className="mt-1 text-sm text-slate-600">Supporters, intros and pilots behind this project.</p>
        </div>
        {status === "live" ? <LiveBadge latest={entries[0]?.id} /> : null}
      </div>

      {empty ? (
        <div data-wall-empty className="mt-5 flex flex-col items-center rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-10 text-center">
          <span aria-hidden className="flex size-12 items-center justify-center rounded-full bg-brand-50 text-brand-600">
            <Handshake className="size-6" />
          </span>
          <p className="mt-4 font-semibold text-slate-900">No supporters yet</p>
          <p className="mt-1 max-w-sm text-sm text-slate-600">Be the first to back this project: signal your interest or offer an intro.</p>
          <Link
            {...dialogLink(dialogs, "signal")}
            className="mt-5 inline-flex items-center rounded-xl bg-brand-600 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-brand-700"
          >
            Signal Interest
          </Link>
        </div>
      ) : (
        <div data-wall-entries className={WALL_LIST_CLASSES.container}>
          {entries.length ? (
            <ol aria-label="Wall entries, newest first" aria-live="polite" aria-relevant="additions" className={WALL_LIST_CLASSES.list}>
              {entries.slice(0, WALL_PREVIEW).map((entry) => (
                <WallEntry key={entry.id} entry={entry} now={now} />
              ))}
            </ol>
          ) : null}
          {entries.length > WALL_PREVIEW ? (
            // A native disclosure: works before (and without) JavaScript.
            <details className={WALL_LIST_CLASSES.details}>
              <summary className={WALL_LIST_CLASSES.summary}>
                Show {entries.length - WALL_PREVIEW} more
              </summary>
              <ol aria-label="Earlier wall entries" className={WALL_LIST_CLASSES.list}>
                {entries.slice(WALL_PREVIEW).map((entry) => (
                  <WallEntry key={entry.id} entry={entry} now={now} />
                ))}
              </ol>
            </details>
          ) : null}
          {hiddenSupporters > 0 ? (
            <p data-hidden-supporters className={`${WALL_LIST_CLASSES.hiddenSupporters} ${entries.length ? "border-t border-slate-100" : ""}`}>
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
    <li data-entry-id={entry.id} data-wall-seq={entry.seq} className={C.item}>
      <span aria-hidden className={`${C.avatar} ${avatarStyle(entry.displayName)}`}>
        {initials(entry.displayName)}
      </span>
      <div className={C.body}>
        <div className={C.heading}>
          <span className={C.name}>{entry.displayName}</span>
          <time dateTime={entry.createdAt} suppressHydrationWarning className={C.time}>
            {formatPitchTime(entry.createdAt, now)}
          </time>
        </div>
        <ul aria-label="Type, roles and tier" className={C.tags}>
          <li className={`${C.type} ${TYPE_STYLES[entry.type]}`}>{entry.type}</li>
          {entry.roleTags.map((tag) => (
            <li key={tag} className={C.role}>
              {tag}
            </li>
          ))}
        </ul>
        {entry.message ? <p className={C.message}>“{entry.message}”</p> : null}
      </div>
    </li>
  );
}
