import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { foldContentLine } from "~/modules/formats/content-lines";
import { meetingInviteIcs, zoneTransitions, type MeetingInvite } from "~/modules/leads/replies/meeting-invite.server";

function invite(overrides: Partial<MeetingInvite> = {}): MeetingInvite {
  return {
    uid: "reply-1@pitchqr",
    stampedAt: new Date("2026-11-26T10:00:00.000Z"),
    startsAt: new Date("2026-12-03T13:30:00.000Z"),
    minutes: 45,
    timeZone: "Europe/Berlin",
    summary: "Harbor Cold Chain: Ada Lovelace, Founder",
    description: "Talk about the pilot; bring questions, please.\nPitch: https://pitch.example/pitch/harbor",
    organizer: { name: "Founder", email: "founder@example.com" },
    attendee: { name: 'Ada "The Countess" Lovelace', email: "ada@example.com" },
    ...overrides,
  };
}

/** Reads the calendar back as a client would: its own VTIMEZONE registered, the event's start as an instant. */
function readBack(ics: string) {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  for (const zone of calendar.getAllSubcomponents("vtimezone")) ICAL.TimezoneService.register(zone);
  const event = new ICAL.Event(calendar.getFirstSubcomponent("vevent")!);
  return { calendar, event };
}

describe("meeting invitation (RFC 5545)", () => {
  it("is a METHOD:REQUEST calendar whose event reads back at the right instant, in the founder's zone", () => {
    const ics = meetingInviteIcs(invite());
    const { calendar, event } = readBack(ics);
    expect(calendar.getFirstPropertyValue("method")).toBe("REQUEST");
    expect(event.uid).toBe("reply-1@pitchqr");
    expect(event.startDate.toJSDate().toISOString()).toBe("2026-12-03T13:30:00.000Z");
    expect(event.endDate.toJSDate().toISOString()).toBe("2026-12-03T14:15:00.000Z");
    expect(event.startDate.zone?.tzid).toBe("Europe/Berlin");
    expect(event.startDate.toString()).toBe("2026-12-03T14:30:00");
    expect(event.organizer).toBe("mailto:founder@example.com");
    expect(event.attendees.map((attendee) => [attendee.getFirstValue(), attendee.getParameter("cn"), attendee.getParameter("rsvp")])).toEqual([
      ["mailto:ada@example.com", "Ada  The Countess  Lovelace", "TRUE"],
    ]);
    expect(event.description).toBe("Talk about the pilot; bring questions, please.\nPitch: https://pitch.example/pitch/harbor");
    expect(calendar.getFirstSubcomponent("vevent")!.getFirstPropertyValue("dtstamp")!.toString()).toBe("2026-11-26T10:00:00Z");
  });

  it("ends every line with CRLF and folds lines at 75 octets without splitting a character", () => {
    const ics = meetingInviteIcs(invite({ description: "Überraschung — ".repeat(20) }));
    expect(ics.endsWith("\r\n")).toBe(true);
    expect(ics.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    for (const line of ics.split("\r\n")) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
    expect(readBack(ics).event.description).toBe("Überraschung — ".repeat(20));
    const folded = foldContentLine("é".repeat(60));
    expect(folded.split("\r\n ").join("")).toBe("é".repeat(60));
  });

  it("describes the zone's daylight-saving changes around the meeting, so a summer meeting reads back right too", () => {
    const summer = meetingInviteIcs(invite({ startsAt: new Date("2026-07-01T16:00:00.000Z"), timeZone: "America/New_York" }));
    const { event, calendar } = readBack(summer);
    expect(event.startDate.toString()).toBe("2026-07-01T12:00:00");
    expect(event.startDate.toJSDate().toISOString()).toBe("2026-07-01T16:00:00.000Z");
    const zone = calendar.getFirstSubcomponent("vtimezone")!;
    const daylight = zone.getAllSubcomponents("daylight").map((part) => part.getFirstPropertyValue("dtstart")!.toString());
    expect(daylight).toContain("2026-03-08T02:00:00");
    expect(zone.getAllSubcomponents("standard").map((part) => part.getFirstPropertyValue("tzoffsetto")!.toString())).toContain("-05:00");
  });

  it("finds a half-hour zone's offset, and a zone without changes has one observance", () => {
    const { event } = readBack(meetingInviteIcs(invite({ timeZone: "Asia/Kolkata", startsAt: new Date("2026-12-03T04:30:00.000Z") })));
    expect(event.startDate.toString()).toBe("2026-12-03T10:00:00");
    expect(event.startDate.toJSDate().toISOString()).toBe("2026-12-03T04:30:00.000Z");
    expect(zoneTransitions("Asia/Kolkata", new Date("2026-12-03T04:30:00.000Z"), new Date("2026-12-03T05:30:00.000Z"))).toEqual([]);
    expect(zoneTransitions("Europe/Berlin", new Date("2026-12-03T00:00:00.000Z"), new Date("2026-12-03T01:00:00.000Z")).map((t) => t.at.toISOString())).toEqual([
      "2026-03-29T01:00:00.000Z",
      "2026-10-25T01:00:00.000Z",
      "2027-03-28T01:00:00.000Z",
      "2027-10-31T01:00:00.000Z",
    ]);
  });
});
