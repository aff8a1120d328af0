import { CircleAlert, Lightbulb, Megaphone, QrCode } from "lucide-react";
import { Link } from "react-router";
import type { PitchPage } from "~/modules/pitch/pitch-page.server";
import { formatPitchDay, formatPitchTime } from "~/modules/time/relative-time";
import { HeroActions, SaveControls } from "./pitch-actions";
import { dialogLink, type PitchDialogs } from "./use-pitch-dialogs";
import { VideoBlock } from "./video-block";
import { parseVideoUrl } from "./video-url";
import { pluralWord } from "~/modules/formats/counts";

type Project = PitchPage["project"];

export function DraftBanner() {
  return (
    <div role="status" className="border-b border-amber-300 bg-amber-100 text-amber-950">
      <p className="mx-auto flex max-w-6xl items-center gap-2 px-4 py-2.5 text-sm">
        <span aria-hidden className="size-2 shrink-0 rounded-full bg-amber-500" />
        <span>
          <strong className="font-semibold">Draft:</strong> only you can see this page.
        </span>
      </p>
    </div>
  );
}

export function Hero({ project, dialogs, following = false }: { project: Project; dialogs: PitchDialogs; following?: boolean }) {
  const video = parseVideoUrl(project.videoUrl);
  // A player gets the column beside the text from 768 px; a plain video link stays with the text.
  const hasVideo = video?.kind === "embed";
  return (
    <section aria-labelledby="pitch-title" className="relative overflow-hidden border-b border-slate-200/70 bg-white">
      <div
        aria-hidden
        className="pointer-events-none absolute inset-0 bg-[radial-gradient(80%_60%_at_0%_0%,var(--color-brand-100)_0%,transparent_70%),radial-gradient(60%_50%_at_100%_0%,#e0f2fe_0%,transparent_70%)] opacity-90"
      />
      {/* One column on phones (text, video, actions); from 768 px the video sits beside the text and actions. */}
      <div
        className={`relative mx-auto grid max-w-6xl gap-6 px-4 pb-8 pt-8 sm:pt-12 md:pb-12 ${
          hasVideo ? "md:grid-cols-[1.05fr_1fr] md:gap-x-10" : "md:max-w-4xl md:text-center"
        }`}
      >
        <div className={hasVideo ? "md:col-start-1 md:self-end" : ""}>
          <h1 id="pitch-title" className="text-[2rem] font-extrabold leading-[1.1] tracking-tight text-balance text-slate-950 sm:text-5xl">
            {project.title}
          </h1>
          <p id="pitch-one-liner" className={`mt-3 text-lg leading-relaxed text-pretty text-slate-600 sm:mt-4 sm:text-xl ${hasVideo ? "" : "md:mx-auto md:max-w-2xl"}`}>{project.oneLiner}</p>
          {project.metrics.length ? (
            <ul aria-label="Traction" className={`mt-5 flex flex-wrap gap-2 ${hasVideo ? "" : "md:justify-center"}`}>
              {project.metrics.map((metric, index) => (
                <li
                  key={index}
                  className="inline-flex items-baseline gap-1.5 rounded-full bg-white/90 px-3.5 py-1.5 text-sm shadow-sm ring-1 ring-slate-200"
                >
                  <span className="font-bold tabular-nums text-slate-950">{metric.value}</span>
                  <span className="text-slate-600">{metric.label}</span>
                </li>
              ))}
            </ul>
          ) : null}
          {video?.kind === "link" ? (
            <div className="mt-5">
              <VideoBlock source={video} title={project.title} />
            </div>
          ) : null}
        </div>
        {hasVideo ? (
          <div className="md:col-start-2 md:row-span-2 md:row-start-1 md:self-center">
            <VideoBlock source={video} title={project.title} />
          </div>
        ) : null}
        <div className={hasVideo ? "md:col-start-1 md:self-start" : ""}>
          <HeroActions dialogs={dialogs} calendlyUrl={project.calendlyUrl} centered={!hasVideo} following={following} />
          <div className={`mt-4 flex flex-wrap items-center gap-x-5 gap-y-2 ${hasVideo ? "" : "md:justify-center"}`}>
            <SaveControls />
            <OpenOnPhone dialogs={dialogs} />
          </div>
        </div>
      </div>
    </section>
  );
}

/** A dialog with this page's QR code, to carry the page from a laptop to a phone. */
function OpenOnPhone({ dialogs }: { dialogs: PitchDialogs }) {
  return (
    <Link
      {...dialogLink(dialogs, "phone")}
      className="inline-flex items-center gap-2 rounded-lg px-1 py-1 text-sm font-semibold text-brand-700 hover:text-brand-600"
    >
      <QrCode aria-hidden className="size-4" />
      Open on my phone
    </Link>
  );
}

export function StatsStrip({ signals, supporters, metrics, lastShippedAt, now }: { signals: number; supporters: number; metrics: number; lastShippedAt: string | null; now: Date }) {
  const shipped = lastShippedAt ? formatPitchTime(lastShippedAt, now) : null;
  const stats: { key?: string; label: string; value: string; time?: string }[] = [
    { key: "signals", label: pluralWord(signals, "Interest signal"), value: String(signals) },
    { key: "supporters", label: pluralWord(supporters, "Supporter"), value: String(supporters) },
  ];
  if (shipped && lastShippedAt) stats.push({ label: "Last shipped", value: shipped, time: lastShippedAt });
  else if (metrics > 0) stats.push({ label: pluralWord(metrics, "Traction metric"), value: String(metrics) });
  return (
    <section aria-label="Stats" className="mx-auto max-w-6xl px-4">
      <dl className={`grid ${stats.length === 3 ? "grid-cols-3" : "grid-cols-2"} divide-x divide-slate-200 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm md:mt-8`}>
        {stats.map((stat) => (
          <div key={stat.label} data-stat={stat.key} className="flex flex-col-reverse items-center justify-center gap-1 px-2 py-4 text-center sm:py-5">
            <dt className="text-xs font-medium text-slate-500 sm:text-sm">{stat.label}</dt>
            <dd className={`font-bold whitespace-nowrap tabular-nums tracking-tight text-slate-950 ${stat.time ? "text-base leading-7 sm:text-2xl sm:leading-8" : "text-xl sm:text-2xl"}`}>
              {stat.time ? (
                <time dateTime={stat.time} suppressHydrationWarning className="block first-letter:uppercase">
                  {stat.value}
                </time>
              ) : (
                stat.value
              )}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** The founder's newest update with its date (decision 65): plain markup, the same in both renderers. */
export function LatestUpdate({ update }: { update: PitchPage["latestUpdate"] }) {
  if (!update) return null;
  return (
    <section aria-labelledby="latest-update-title" className="mx-auto max-w-6xl px-4">
      <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
        <header className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
          <h2 id="latest-update-title" className="flex items-center gap-2 text-sm font-semibold uppercase tracking-wider text-slate-500">
            <Megaphone aria-hidden className="size-4 text-brand-600" />
            Latest update
          </h2>
          <time dateTime={update.createdAt} data-day className="text-sm text-slate-500">
            {formatPitchDay(update.createdAt)}
          </time>
        </header>
        <p className="mt-3 whitespace-pre-line break-words text-[15px] leading-relaxed text-slate-800 sm:text-base">{update.body}</p>
      </div>
    </section>
  );
}

/** The problem and the solution cards: one look, each with its own icon, colours, heading and points. */
const POINTS_CARDS = {
  problem: { title: "The problem", Icon: CircleAlert, badge: "bg-rose-50 text-rose-600", dot: "bg-rose-400" },
  solution: { title: "The solution", Icon: Lightbulb, badge: "bg-emerald-50 text-emerald-600", dot: "bg-emerald-500" },
} as const;

function PointsCard({ kind, points }: { kind: keyof typeof POINTS_CARDS; points: string[] }) {
  const { title, Icon, badge, dot } = POINTS_CARDS[kind];
  return (
    <article className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
      <header className="flex items-center gap-3">
        <span aria-hidden className={`flex size-10 items-center justify-center rounded-xl ${badge}`}>
          <Icon className="size-5" />
        </span>
        <h2 className="text-lg font-bold tracking-tight">{title}</h2>
      </header>
      <ul className="mt-4 space-y-3">
        {points.map((point, index) => (
          <li key={index} className="flex gap-3 text-[15px] leading-relaxed text-slate-700">
            <span aria-hidden className={`mt-2.5 size-1.5 shrink-0 rounded-full ${dot}`} />
            <span>{point}</span>
          </li>
        ))}
      </ul>
    </article>
  );
}

export function ProblemSolution({ problems, solutions }: { problems: string[]; solutions: string[] }) {
  if (!problems.length && !solutions.length) return null;
  return (
    <section aria-label="Problem and solution" className={`mx-auto grid max-w-6xl gap-4 px-4 ${problems.length && solutions.length ? "md:grid-cols-2" : ""}`}>
      {problems.length ? <PointsCard kind="problem" points={problems} /> : null}
      {solutions.length ? <PointsCard kind="solution" points={solutions} /> : null}
    </section>
  );
}


export const LEGAL_STATEMENT =
  "Signals of interest on this page are non-binding. No payment is made, and no securities are offered or sold here. Any investment discussion happens off-platform, directly between you and the founders.";

export function LegalFooter() {
  return (
    <footer className="mt-12 border-t border-slate-200 bg-white pb-[calc(5.5rem+env(safe-area-inset-bottom))] md:pb-0">
      <div className="mx-auto max-w-6xl px-4 py-8 text-sm text-slate-600">
        <p className="max-w-3xl leading-relaxed">{LEGAL_STATEMENT}</p>
        <nav aria-label="Legal" className="mt-4 flex flex-wrap gap-x-6 gap-y-2 font-medium">
          <Link to="/terms" className="hover:text-slate-900 hover:underline">
            Terms
          </Link>
          <Link to="/privacy" className="hover:text-slate-900 hover:underline">
            Privacy
          </Link>
          <Link to="/unsubscribe" className="hover:text-slate-900 hover:underline">
            Unsubscribe
          </Link>
        </nav>
      </div>
    </footer>
  );
}
