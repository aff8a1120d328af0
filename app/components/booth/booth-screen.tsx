import { Maximize, WifiOff } from "lucide-react";
import { useEffect, useEffectEvent, useMemo, useState, useSyncExternalStore } from "react";
import { codeName } from "~/modules/analytics/source-names";
import { PLAIN_PITCH_CODE } from "~/modules/booth/booth-codes";
import { tickerLine, type TickerItem } from "~/modules/booth/booth-ticker";
import { zonedDayStart } from "~/modules/time/founder-zone";
import { AddPerson } from "~/components/founder/leads/capture-sheet";

type BoothCode = { id: string; label: string; eventTag: string | null; url: string; svg: string };
type Counters = { since: string; scans: number; peopleWhoActed: number; intros: number; signals: number };
type TickerLine = { id: string; text: string; kind: TickerItem["kind"]; at: number; count: number; eventLabel: string | null };

const SHOWN_LINES = 6;
/** Scans this close together share one line ("3 scans just now": scans, not people, since one phone may scan twice), so a busy hall does not flood the ticker. */
const SCAN_GROUP_MS = 60_000;
const REOPEN_MS = 2_000;

/** Ids remembered to drop a repeat: far more than one read's overlap can bring back. */
const REMEMBERED_IDS = 1_000;

const choiceKey = (projectId: string) => `pitchqr:booth:${projectId}:qr`;


/** New items into the lines shown, newest first: repeated ids are dropped, close scans share a line. */
function addToTicker(lines: TickerLine[], items: TickerItem[], seen: Set<string>): TickerLine[] {
  let next = lines;
  for (const item of items) {
    if (seen.has(item.id)) continue;
    seen.add(item.id);
    if (seen.size > REMEMBERED_IDS) seen.delete(seen.values().next().value!);
    const at = Date.parse(item.at);
    const top = next[0];
    if (item.kind === "scan" && top?.kind === "scan" && top.eventLabel === item.eventLabel && Math.abs(at - top.at) < SCAN_GROUP_MS) {
      const count = top.count + item.count;
      next = [{ ...top, id: item.id, at, count, text: tickerLine({ ...item, count }) }, ...next.slice(1)];
      continue;
    }
    const eventLabel = item.kind === "scan" ? item.eventLabel : null;
    const count = item.kind === "scan" ? item.count : 1;
    next = [{ id: item.id, text: tickerLine(item), kind: item.kind, at, count, eventLabel }, ...next].slice(0, SHOWN_LINES);
  }
  return next;
}

/** Midnight on the owner's clock, as an instant: the booth's "today" (decision 53), the same on every device. */
function ownersMidnight(timeZone: string): string {
  return new Date(zonedDayStart(Date.now(), timeZone)).toISOString();
}

/** Changes at the owner's midnight, so the booth starts a new day (counters and ticker) by itself. */
function useOwnersDay(timeZone: string): string {
  const [day, setDay] = useState(() => ownersMidnight(timeZone));
  useEffect(() => {
    const nextMidnight = zonedDayStart(Date.parse(day) + 26 * 3_600_000, timeZone);
    const timer = setTimeout(() => setDay(ownersMidnight(timeZone)), Math.max(1_000, nextMidnight - Date.now() + 1_000));
    return () => clearTimeout(timer);
  }, [day, timeZone]);
  return day;
}

function useLiveBooth(projectId: string, timeZone: string, onCode: (codeId: string) => void) {
  const today = useOwnersDay(timeZone);
  const [counters, setCounters] = useState<Counters | null>(null);
  // Kept with the day they belong to: a new day starts with an empty ticker.
  const [ticker, setTicker] = useState<{ day: string; lines: TickerLine[] }>({ day: today, lines: [] });
  const [connected, setConnected] = useState(false);
  const [online, setOnline] = useState(true);
  const [ended, setEnded] = useState(false);
  const onCodeEvent = useEffectEvent(onCode);

  useEffect(() => {
    const seen = new Set<string>();
    const streamUrl = `/project/${encodeURIComponent(projectId)}/booth/stream`;
    let source: EventSource | null = null;
    let reopen: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const stop = () => {
      stopped = true;
      clearTimeout(reopen);
      source?.close();
    };
    const open = () => {
      if (stopped) return;
      source = new EventSource(streamUrl);
      source.addEventListener("open", () => setConnected(true));
      source.addEventListener("counters", (event) => setCounters(JSON.parse((event as MessageEvent<string>).data) as Counters));
      source.addEventListener("ticker", (event) => {
        const items = JSON.parse((event as MessageEvent<string>).data) as TickerItem[];
        setTicker((current) => ({ day: today, lines: addToTicker(current.day === today ? current.lines : [], items, seen) }));
      });
      // A booth link re-pointed by the owner: this screen shows the link's new code at once.
      source.addEventListener("code", (event) => onCodeEvent((JSON.parse((event as MessageEvent<string>).data) as { codeId: string }).codeId));
      source.addEventListener("ended", () => {
        setEnded(true);
        stop();
      });
      source.addEventListener("error", () => {
        setConnected(false);
        // EventSource retries a dropped connection by itself, but gives up on an answer that is not a stream.
        if (source?.readyState !== EventSource.CLOSED) return;
        reopen = setTimeout(() => {
          fetch(streamUrl, { method: "HEAD" })
            .then((response) => {
              if (response.status === 404) {
                setEnded(true);
                stop();
              } else open();
            })
            .catch(open);
        }, REOPEN_MS);
      });
    };
    open();
    return stop;
  }, [projectId, today]);

  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    update();
    window.addEventListener("online", update);
    window.addEventListener("offline", update);
    return () => {
      window.removeEventListener("online", update);
      window.removeEventListener("offline", update);
    };
  }, []);

  return { counters, lines: ticker.day === today ? ticker.lines : [], live: connected && online, ended };
}

/** Keeps the screen on while the booth is shown (Screen Wake Lock API where there is one), again after the tab was hidden. */
function useWakeLock() {
  useEffect(() => {
    if (!("wakeLock" in navigator)) return;
    let lock: WakeLockSentinel | null = null;
    let released = false;
    const acquire = () => {
      if (document.visibilityState !== "visible") return;
      navigator.wakeLock
        .request("screen")
        .then((sentinel) => {
          if (released) void sentinel.release();
          else lock = sentinel;
        })
        .catch(() => undefined);
    };
    acquire();
    document.addEventListener("visibilitychange", acquire);
    return () => {
      released = true;
      document.removeEventListener("visibilitychange", acquire);
      void lock?.release();
    };
  }, []);
}

function subscribeToStorage(onChange: () => void) {
  window.addEventListener("storage", onChange);
  return () => window.removeEventListener("storage", onChange);
}

/**
 * The code this screen shows. A booth link's screen: the link's code, followed when the owner
 * re-points it. The owner's screen: this device's last choice (kept in localStorage per project), else the server's
 * default booth code.
 */
function useChosenCode(projectId: string, codes: BoothCode[], shownCode: string, followsLink: boolean) {
  const stored = useSyncExternalStore(
    subscribeToStorage,
    () => window.localStorage.getItem(choiceKey(projectId)),
    () => null,
  );
  const [picked, setPicked] = useState<string | null>(null);
  const [linkCode, setLinkCode] = useState(shownCode);
  const chosenId = followsLink ? linkCode : (picked ?? stored ?? shownCode);
  const choose = (id: string) => {
    setPicked(id);
    window.localStorage.setItem(choiceKey(projectId), id);
  };
  const chosen = codes.find((code) => code.id === chosenId) ?? codes.find((code) => code.id === shownCode) ?? codes[0] ?? null;
  return { chosen, choose, followLinkCode: setLinkCode };
}

export function BoothScreenView({
  project,
  codes,
  owner,
  timeZone,
  shownCode,
  followsLink,
  memberId = null,
}: {
  project: { id: string; title: string };
  codes: BoothCode[];
  owner: boolean;
  timeZone: string;
  shownCode: string;
  followsLink: boolean;
  /** The signed-in member, who may add people met at the booth; null through a booth link. */
  memberId?: string | null;
}) {
  const { chosen, choose, followLinkCode } = useChosenCode(project.id, codes, shownCode, followsLink);
  const { counters, lines, live, ended } = useLiveBooth(project.id, timeZone, followLinkCode);
  useWakeLock();
  useEffect(() => {
    // The token now sits in a cookie: take it out of the address bar and of this history entry.
    const url = new URL(window.location.href);
    if (!url.searchParams.has("key")) return;
    url.searchParams.delete("key");
    window.history.replaceState(window.history.state, "", `${url.pathname}${url.search}${url.hash}`);
  }, []);
  const figures = useMemo(
    () => [
      { label: "Scans", value: counters?.scans },
      { label: "People who acted", value: counters?.peopleWhoActed },
      { label: "Intros", value: counters?.intros },
      { label: "Signals", value: counters?.signals },
    ],
    [counters],
  );

  if (ended) return <BoothEnded ended />;

  return (
    <main className="flex min-h-dvh flex-col gap-5 bg-slate-950 p-4 text-white sm:p-6 landscape:flex-row landscape:items-stretch">
      <section aria-label="QR code" className="flex flex-col items-center justify-center gap-3 landscape:flex-1">
        <h1 className="text-center text-2xl font-bold tracking-tight text-balance sm:text-3xl">{project.title}</h1>
        {chosen ? (
          <>
            <div
              role="img"
              aria-label={`QR code for ${chosen.label}`}
              className="aspect-square w-[min(88vw,52dvh)] rounded-2xl bg-white p-2 landscape:w-[min(76dvh,50vw)] [&>svg]:size-full"
              dangerouslySetInnerHTML={{ __html: chosen.svg }}
            />
            <p className="text-center text-lg font-medium text-slate-200">
              {chosen.id === PLAIN_PITCH_CODE
                ? "Scan to see the pitch"
                : `Scan to see the pitch · ${codeName(chosen.label, chosen.eventTag)}`}
            </p>
            {owner && codes.length === 1 ? (
              <p className="max-w-sm text-center text-sm text-slate-400">
                Scans of this code count as direct visits. Create a tracked QR code on the QR codes page to see this booth as an event.
              </p>
            ) : null}
          </>
        ) : null}
      </section>

      <section aria-label="Today" className="flex flex-col gap-4 landscape:w-[42%] landscape:max-w-xl">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-sm font-medium uppercase tracking-wide text-slate-400">Today since 00:00</p>
          <div className="flex items-center gap-2">
            {live ? (
              <span className="inline-flex items-center gap-1.5 rounded-full bg-emerald-500/15 px-2.5 py-1 text-xs font-semibold text-emerald-300">
                <span aria-hidden className="size-2 rounded-full bg-emerald-400" />
                Live
              </span>
            ) : (
              <span role="status" className="inline-flex items-center gap-1.5 rounded-full bg-amber-400 px-2.5 py-1 text-xs font-bold text-slate-950">
                <WifiOff aria-hidden className="size-3.5" />
                Offline — reconnecting…
              </span>
            )}
            <button
              type="button"
              onClick={() => void document.documentElement.requestFullscreen?.().catch(() => undefined)}
              className="inline-flex items-center gap-1.5 rounded-lg border border-slate-700 px-2.5 py-1 text-xs font-semibold text-slate-200 hover:bg-slate-800"
            >
              <Maximize aria-hidden className="size-3.5" />
              Full screen
            </button>
          </div>
        </div>
        <dl className="grid grid-cols-2 gap-3">
          {figures.map((figure) => (
            <div key={figure.label} className="rounded-xl bg-slate-900 p-3 ring-1 ring-slate-800">
              <dt className="text-sm text-slate-400">{figure.label}</dt>
              <dd className="text-4xl font-extrabold tabular-nums">{figure.value ?? "–"}</dd>
            </div>
          ))}
        </dl>
        <div className="min-h-0 flex-1">
          <h2 className="text-sm font-medium uppercase tracking-wide text-slate-400">Just now</h2>
          <ul aria-label="Live activity" aria-live="polite" className="mt-2 space-y-2">
            {lines.length ? (
              lines.map((line) => (
                <li key={line.id} className="rounded-lg bg-slate-900 px-3 py-2 text-lg font-medium ring-1 ring-slate-800">
                  {line.text}
                </li>
              ))
            ) : (
              <li className="text-slate-400">Nothing yet today. Scans, intros and signals show up here as they happen.</li>
            )}
          </ul>
        </div>
        {codes.length > 1 && !followsLink ? (
          <label className="text-sm text-slate-400">
            QR code shown{" "}
            <select
              value={chosen?.id}
              onChange={(event) => choose(event.target.value)}
              className="ml-1 rounded-md border border-slate-700 bg-slate-900 px-2 py-1 text-slate-100"
            >
              {codes.map((code) => (
                <option key={code.id} value={code.id}>
                  {codeName(code.label, code.eventTag)}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        {/* Signed in only: a person added here is credited to the code shown and to who added them (decision 62). */}
        {memberId && chosen ? (
          // Held at the bottom of the screen, under the thumb, while the day's figures and lines scroll past.
          <div className="sticky bottom-0 -mx-4 bg-slate-950/95 px-4 pt-2 pb-[calc(0.75rem+env(safe-area-inset-bottom))] sm:-mx-6 sm:px-6 landscape:mx-0 landscape:px-0">
            <AddPerson projectId={project.id} memberId={memberId} codeId={chosen.id} tone="dark" />
          </div>
        ) : null}
      </section>
    </main>
  );
}

/** What a booth link that opens nothing shows: nothing of the project. */
export function BoothEnded({ ended }: { ended: boolean }) {
  return (
    <main className="mx-auto flex min-h-dvh max-w-xl flex-col items-center justify-center px-4 text-center">
      <p className="text-6xl font-extrabold text-brand-600">404</p>
      <h1 className="mt-4 text-2xl font-bold">{ended ? "This booth link has expired or been revoked" : "Oops! Page not found"}</h1>
      <p className="mt-3 text-slate-600">{ended ? "Ask the founder for a new one." : "The page you are looking for does not exist."}</p>
    </main>
  );
}
