import { Link } from "react-router";
import { Info } from "lucide-react";
import type { ProjectAnalytics } from "~/modules/analytics/analytics.server";
import { SectionCard } from "~/components/ui/card";
import { plural } from "~/modules/formats/counts";
import { READING_HOW_WE_COUNT } from "~/modules/deck-reading/reading-rules";

/** What each number means, and the proof that the filters work (how many loads each one kept out). */
export function HowWeCount({ analytics, deckReading = false }: { analytics: ProjectAnalytics; deckReading?: boolean }) {
  const { excluded } = analytics;
  const exclusions = [
    { label: "bots and crawlers", count: excluded.bots },
    { label: "link previews (chat apps, social networks)", count: excluded.previews },
    { label: "fetches by an app, not a browser (QR scanner apps checking the link)", count: excluded.appFetches },
    { label: "prefetches by a browser (counted as a scan if the page is then shown)", count: excluded.prefetches },
    { label: "views by your team: you and every member, signed in, or on a device where one of you signed in or opened a booth link", count: excluded.ownerViews },
  ];
  return (
    <SectionCard id="how-we-count-title" title="How we count" icon={Info}>
      <dl className="grid gap-4 text-sm text-slate-700 sm:grid-cols-2">
        <div>
          <dt className="font-semibold text-slate-950">Scan</dt>
          <dd className="mt-1">
            An action, not a person: a load of your pitch page in a browser through a QR code or your link, counted by
            our server when it sends the page, so visitors without JavaScript and quick glances count too. A reload is
            another scan. A later visit by someone who came through a code counts for that code, even by your plain link.
          </dd>
        </div>
        <div>
          <dt className="font-semibold text-slate-950">Unique viewer</dt>
          <dd className="mt-1">
            As near to one person as a server can know: one browser on one device, told apart by a random id our site
            keeps in it (a first-party cookie; nothing from other sites). A browser that keeps no site data is counted
            by a daily-changing hash of its network address and browser, so it is one viewer however often it reloads,
            and never taken for anyone else. What can still double: one person in two apps (a QR scanner&apos;s own
            window, then &ldquo;Open in Safari&rdquo;; a chat app&apos;s browser, then their own), or on two devices,
            is two viewers; no server can tell they are one person.
          </dd>
        </div>
        <div>
          <dt className="font-semibold text-slate-950">Not counted</dt>
          <dd className="mt-1">
            <ul className="grid gap-0.5">
              {exclusions.map((item) => (
                <li key={item.label}>
                  <span className="font-semibold text-slate-950 tabular-nums">{item.count.toLocaleString("en-US")}</span> {item.label}
                </li>
              ))}
            </ul>
          </dd>
        </div>
        <div>
          <dt className="font-semibold text-slate-950">Held for review</dt>
          <dd className="mt-1">
            <Link to={`/project/${analytics.project.id}/leads/held`} className="font-semibold text-brand-700 underline underline-offset-2">
              {analytics.heldForReview.toLocaleString("en-US")} held for review
            </Link>
            {analytics.refusedLastWeek ? (
              <>
                {" "}
                · <strong className="font-semibold text-slate-950">{plural(analytics.refusedLastWeek, "form")} refused</strong> in the last 7 days
                beyond the hourly ceiling on held forms
              </>
            ) : null}
            . A form with the hidden field filled in, sent within seconds of opening the page, or past a limit (4 forms
            from one browser within 10 seconds, 60 within 10 minutes, 1,000 from one network within 10 minutes, 5 for
            one e-mail address within an hour) is kept apart, counted nowhere, until you accept or discard it.
          </dd>
        </div>
        <div>
          <dt className="font-semibold text-slate-950">Device, browser and app</dt>
          <dd className="mt-1">
            Read from how the browser describes itself when a scan is counted, and kept only as these few labels per hour,
            never the description itself or an address. An app that opens links in a standard Safari or Chrome window
            counts as that browser, and an iPad asking for desktop pages as a computer.
          </dd>
        </div>
        <div>
          <dt className="font-semibold text-slate-950">People who acted</dt>
          <dd className="mt-1">
            Distinct e-mail addresses that requested an intro, followed updates or signalled interest:{" "}
            {plural(analytics.peopleWhoActed, "person", "people")}. Each action belongs to the QR code of that person&apos;s
            latest visit, or to your plain link. The Conversion Rate card counts actions, as the spec defines it, so one
            person&apos;s three actions count three times there.
          </dd>
        </div>
        {deckReading ? (
          <div>
            <dt className="font-semibold text-slate-950">Deck reading</dt>
            <dd className="mt-1">
              {READING_HOW_WE_COUNT} A reader is one browser (or one opening of the deck, in a browser that keeps no
              cookie), however often it opened the deck; a page&apos;s median is the middle of its readers&apos; times on it.
            </dd>
          </div>
        ) : null}
      </dl>
    </SectionCard>
  );
}
