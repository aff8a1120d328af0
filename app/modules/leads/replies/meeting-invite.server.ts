import { escapeContentText, foldContentLine } from "~/modules/formats/content-lines";
import { localParts, zoneOffsetMs } from "~/modules/time/zoned-slots";
import { DAY_MS, MINUTE_MS } from "~/modules/time/units";

/**
 * A meeting invitation as an RFC 5545 calendar (`METHOD:REQUEST`), the way Gmail, Apple Mail and Outlook show one:
 * one VEVENT in the founder's zone, with a VTIMEZONE for that zone built from the zone's own offsets (the runtime's
 * `Intl`, no time-zone database download), CRLF line ends and lines folded at 75 octets.
 */
export type MeetingInvite = {
  /** Stable per meeting: the same proposal always gives the same UID, so a client updates rather than duplicates. */
  uid: string;
  /** When the invitation was written (DTSTAMP). */
  stampedAt: Date;
  startsAt: Date;
  minutes: number;
  /** The founder's IANA zone: the meeting's DTSTART and DTEND are written on its wall clock. */
  timeZone: string;
  summary: string;
  description: string;
  organizer: { name: string; email: string };
  attendee: { name: string; email: string };
};

export function meetingInviteIcs(invite: MeetingInvite): string {
  const endsAt = new Date(invite.startsAt.getTime() + invite.minutes * MINUTE_MS);
  const lines = [
    "BEGIN:VCALENDAR",
    "PRODID:-//PitchQR//Lead reply//EN",
    "VERSION:2.0",
    "CALSCALE:GREGORIAN",
    "METHOD:REQUEST",
    ...vtimezone(invite.timeZone, invite.startsAt, endsAt),
    "BEGIN:VEVENT",
    `UID:${escapeContentText(invite.uid)}`,
    `DTSTAMP:${utcDateTime(invite.stampedAt)}`,
    `DTSTART;TZID=${invite.timeZone}:${wallDateTime(invite.startsAt, invite.timeZone)}`,
    `DTEND;TZID=${invite.timeZone}:${wallDateTime(endsAt, invite.timeZone)}`,
    "SEQUENCE:0",
    "STATUS:CONFIRMED",
    "TRANSP:OPAQUE",
    `SUMMARY:${escapeContentText(invite.summary)}`,
    `DESCRIPTION:${escapeContentText(invite.description)}`,
    `ORGANIZER;CN=${quotedParameter(invite.organizer.name)}:mailto:${invite.organizer.email}`,
    `ATTENDEE;CN=${quotedParameter(invite.attendee.name)};ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:${invite.attendee.email}`,
    "END:VEVENT",
    "END:VCALENDAR",
  ];
  return lines.map(foldContentLine).join("\r\n") + "\r\n";
}

/** A zone's offset from UTC at `at`, in whole minutes (east positive). */
function zoneOffsetMinutes(at: Date, timeZone: string): number {
  return Math.round(zoneOffsetMs(at, timeZone) / MINUTE_MS);
}

type Transition = { at: Date; from: number; to: number };

/**
 * The zone's offset changes from a year before `from` to a year after `to`: day by day, each change then narrowed to
 * its minute. A year before covers the offset in force at the meeting; a year after, the offset at its end.
 */
export function zoneTransitions(timeZone: string, from: Date, to: Date): Transition[] {
  const transitions: Transition[] = [];
  const start = from.getTime() - 366 * DAY_MS;
  const end = to.getTime() + 366 * DAY_MS;
  let previous = zoneOffsetMinutes(new Date(start), timeZone);
  for (let day = start + DAY_MS; day <= end; day += DAY_MS) {
    const offset = zoneOffsetMinutes(new Date(day), timeZone);
    if (offset === previous) continue;
    let low = day - DAY_MS;
    let high = day;
    while (high - low > MINUTE_MS) {
      const mid = low + Math.floor((high - low) / 2 / MINUTE_MS) * MINUTE_MS;
      if (zoneOffsetMinutes(new Date(mid), timeZone) === previous) low = mid;
      else high = mid;
    }
    transitions.push({ at: new Date(high), from: previous, to: offset });
    previous = offset;
  }
  return transitions;
}

function vtimezone(timeZone: string, from: Date, to: Date): string[] {
  const transitions = zoneTransitions(timeZone, from, to);
  const observances =
    transitions.length === 0
      ? observance("STANDARD", "19700101T000000", zoneOffsetMinutes(from, timeZone), zoneOffsetMinutes(from, timeZone), zoneName(from, timeZone))
      : transitions.flatMap((change) =>
          observance(
            change.to > change.from ? "DAYLIGHT" : "STANDARD",
            // An observance starts at the wall-clock time of the change, read on the clock before it.
            utcDateTime(new Date(change.at.getTime() + change.from * MINUTE_MS)).slice(0, -1),
            change.from,
            change.to,
            zoneName(change.at, timeZone),
          ),
        );
  return ["BEGIN:VTIMEZONE", `TZID:${timeZone}`, ...observances, "END:VTIMEZONE"];
}

function observance(kind: "STANDARD" | "DAYLIGHT", start: string, from: number, to: number, name: string): string[] {
  return [`BEGIN:${kind}`, `DTSTART:${start}`, `TZOFFSETFROM:${utcOffset(from)}`, `TZOFFSETTO:${utcOffset(to)}`, `TZNAME:${escapeContentText(name)}`, `END:${kind}`];
}

/** The zone's short name at that instant ('CET', 'PST', or 'GMT+5:30' where the runtime knows no abbreviation). */
function zoneName(at: Date, timeZone: string): string {
  const part = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "short" }).formatToParts(at).find((p) => p.type === "timeZoneName");
  return part?.value ?? timeZone;
}

function utcOffset(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const absolute = Math.abs(minutes);
  return `${sign}${pad(Math.floor(absolute / 60))}${pad(absolute % 60)}`;
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, "0");
}

/** `20261203T130000Z`. */
function utcDateTime(at: Date): string {
  return at.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
}

/** `20261203T140000`: the zone's wall clock at that instant. */
function wallDateTime(at: Date, timeZone: string): string {
  const p = localParts(at, timeZone);
  return `${pad(p.year, 4)}${pad(p.month)}${pad(p.day)}T${pad(p.hour)}${pad(p.minute)}${pad(p.second)}`;
}

/** A parameter value (a CN) in double quotes, which it may not contain; no line break of any kind. */
function quotedParameter(value: string): string {
  return `"${value.replace(/["\r\n\v\f\u0085\u2028\u2029]/g, " ").trim()}"`;
}

