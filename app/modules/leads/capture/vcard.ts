import { formatAmountRange } from "~/modules/formats/amount";
import { escapeContentText, foldContentLine } from "~/modules/formats/content-lines";
import type { LeadActivityItem } from "~/modules/leads/inbox/lead-views.server";
import type { SourceName } from "~/modules/analytics/source-names";
import type { QualifyingAnswer } from "~/modules/leads/inbox/qualifying-answer";

export type VCardLead = {
  name: string;
  /** Null for a person met without an e-mail (decision 92): their card has no EMAIL line. */
  email: string | null;
  phone?: string | null;
  linkedinUrl: string | null;
  event: SourceName;
  activity: LeadActivityItem[];
  /** The founder's own note: the vCard goes to the founder's address book, never to anyone else. */
  note: string | null;
  /** Their latest answer to the project's qualifying question. */
  answer: QualifyingAnswer | null;
};


/** 'Ada Lovelace' → family 'Lovelace', given 'Ada'; a single word is the given name. */
function splitName(name: string): { family: string; given: string } {
  const words = name.trim().split(/\s+/);
  if (words.length < 2) return { family: "", given: words[0] ?? "" };
  return { family: words[words.length - 1]!, given: words.slice(0, -1).join(" ") };
}

const day = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });

/** What they did and where the founder met them, in words, for the contact's NOTE. */
export function describeLeadActivity(lead: Pick<VCardLead, "event" | "activity">, projectTitle: string): string {
  const lines = [
    lead.event.kind === "code"
      ? `Met at ${lead.event.name} through ${projectTitle} (PitchQR).`
      : lead.event.kind === "direct"
        ? `Came by the link to ${projectTitle} (PitchQR).`
        : `Lead from ${projectTitle} (PitchQR).`,
  ];
  for (const item of [...lead.activity].reverse()) {
    const when = item.at ? day.format(new Date(item.at)) : "Since then";
    if (item.kind === "intro") {
      const roles = item.roleTags.length ? ` (${item.roleTags.join(", ")})` : "";
      lines.push(`${when}: requested an intro${roles}${item.note ? `: ${item.note}` : ""}`);
    } else if (item.kind === "subscription") {
      lines.push(`${when}: followed updates`);
    } else if (item.kind === "reply") {
      lines.push(`${when}: replied, "${item.subject}"${item.meeting ? " (meeting proposed)" : ""}`);
    } else if (item.kind === "call") {
      lines.push(`${when}: called${item.note ? `: ${item.note}` : ""}`);
    } else if (item.kind === "change") {
      // The team's own triage stays in the inbox: the card carries the current note, not its history.
      continue;
    } else if (item.kind === "met") {
      lines.push(`${when}: met in person at ${item.event}, added by ${item.addedBy}${item.note ? `: ${item.note}` : ""}`);
    } else {
      const range = formatAmountRange(item.rangeMin, item.rangeMax);
      lines.push(`${when}: signaled interest, ${item.rangeLabel} ${range}${item.message ? `: ${item.message}` : ""}`);
    }
  }
  return lines.join("\n");
}

/** One vCard 3.0 (broadest import: iOS, Google, Outlook, CRMs), CRLF line ends, folded, UTF-8. */
export function buildVCard(lead: VCardLead, projectTitle: string): string {
  const { family, given } = splitName(lead.name);
  let note = describeLeadActivity(lead, projectTitle);
  if (lead.answer) note += `\n\n${lead.answer.question} ${lead.answer.answer}`;
  if (lead.note) note += `\n\nMy note: ${lead.note}`;
  const lines = [
    "BEGIN:VCARD",
    "VERSION:3.0",
    `N:${escapeContentText(family)};${escapeContentText(given)};;;`,
    `FN:${escapeContentText(lead.name)}`,
    ...(lead.email ? [`EMAIL;TYPE=INTERNET:${escapeContentText(lead.email)}`] : []),
    ...(lead.phone ? [`TEL;TYPE=CELL:${escapeContentText(lead.phone)}`] : []),
    // A URI value is not text-escaped (a comma is part of the address); line breaks cannot occur in a validated URL.
    ...(lead.linkedinUrl ? [`URL:${lead.linkedinUrl.replace(/[\r\n]/g, "")}`] : []),
    `NOTE:${escapeContentText(note)}`,
    `CATEGORIES:${escapeContentText(projectTitle)}`,
    "END:VCARD",
  ];
  return lines.map(foldContentLine).join("\r\n") + "\r\n";
}

/** 'Ada Lovelace' → 'Ada-Lovelace.vcf'; the list download is named after the project. */
export function vcardFileName(name: string): string {
  const base = name.trim().replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-+|-+$/g, "");
  return `${base || "lead"}.vcf`;
}
