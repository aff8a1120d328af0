import { Clock } from "lucide-react";
import { useFetcher } from "react-router";
import { primaryButtonClass, secondaryButtonClass } from "~/components/ui/buttons";
import { SectionCard } from "~/components/ui/card";
import { FieldError, FormAlert, inputClass, labelClass } from "~/components/ui/form-fields";
import { useBrowserTimeZone } from "~/components/ui/use-clock";
import type { FormResult } from "~/modules/forms/form-result";
import { formatUtcOffset } from "~/modules/time/founder-dates";
import { acceptedTimeZone } from "~/modules/time/founder-zone";

type SavedZone = FormResult<"time-zone">;

/** A zone and its name in the list, 'Asia/Kolkata (UTC+5:30)'; labelled on the server (browsers' zone data differ). */
export type TimeZoneChoice = { zone: string; label: string };

/** 'Asia/Kolkata (UTC+5:30)': the name a founder recognises, and the offset that tells zones apart at a glance. */
export function zoneLabel(timeZone: string, now: number): string {
  return timeZone === "UTC" ? "UTC" : `${timeZone.replaceAll("_", " ")} (${formatUtcOffset(now, timeZone)})`;
}

/**
 * The account's time zone (decision 53): every date, day and hour on the founder's screens is on this clock. Set from the browser at sign-up; an account made before that shows UTC until the founder picks one,
 * and is offered the browser's zone in one tap. Posts to My Projects' action.
 */
export function TimeZoneCard({ timeZone, chosen, choices, now }: { timeZone: string; chosen: boolean; choices: TimeZoneChoice[]; now: string }) {
  const save = useFetcher<SavedZone>();
  const detected = useBrowserTimeZone();
  const browserZone = detected ? (acceptedTimeZone(detected) ?? "") : "";
  const nowMs = Date.parse(now);
  const offerBrowser = browserZone && browserZone !== timeZone && !chosen;
  const failed = save.data && !save.data.ok ? save.data : null;
  return (
    <SectionCard
      id="time-zone-title"
      title="Your time zone"
      icon={Clock}
      description={
        chosen
          ? "Dates on your screens, the daily and hourly charts and the booth's 'today' use this clock."
          : "Not set yet: dates and charts show UTC. Pick your zone so days start at your midnight."
      }
      className="mt-8"
    >
      {offerBrowser ? (
        <save.Form method="post" action="/my-projects" className="mb-4 rounded-xl border border-brand-100 bg-brand-50 p-3">
          <input type="hidden" name="intent" value="time-zone" />
          <input type="hidden" name="timeZone" value={browserZone} />
          <p className="text-sm text-slate-800">
            This browser is in <span className="font-semibold">{zoneLabel(browserZone, nowMs)}</span>.
          </p>
          <button type="submit" className={`${primaryButtonClass} mt-2 w-full sm:w-auto`} disabled={save.state !== "idle"}>
            Use {browserZone.replaceAll("_", " ")}
          </button>
        </save.Form>
      ) : null}
      <save.Form method="post" action="/my-projects" className="space-y-3">
        <input type="hidden" name="intent" value="time-zone" />
        <div>
          <label htmlFor="time-zone" className={labelClass}>
            Time zone
          </label>
          <select
            id="time-zone"
            name="timeZone"
            defaultValue={timeZone}
            key={timeZone}
            className={inputClass}
            aria-invalid={!!failed?.fieldErrors?.timeZone}
            aria-describedby={failed?.fieldErrors?.timeZone ? "time-zone-error" : undefined}
          >
            {choices.map((choice) => (
              <option key={choice.zone} value={choice.zone}>
                {choice.label}
              </option>
            ))}
          </select>
          <FieldError id="time-zone-error" message={failed?.fieldErrors?.timeZone} />
        </div>
        <FormAlert message={failed && !failed.fieldErrors?.timeZone ? failed.formError : null} />
        {save.data?.ok ? (
          <p role="status" className="text-sm font-medium text-emerald-700">
            {save.data.message}
          </p>
        ) : null}
        <button type="submit" className={`${secondaryButtonClass} w-full sm:w-auto`} disabled={save.state !== "idle"}>
          {save.state !== "idle" ? "Saving..." : "Save time zone"}
        </button>
      </save.Form>
    </SectionCard>
  );
}
