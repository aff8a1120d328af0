import { EMAIL_PATTERN } from "~/modules/formats/email-address";
import { LIMITS } from "~/modules/forms/visitor-limits";
import { CAPTURE_NOTE_MAX_LENGTH, isLinkedInUrl } from "./capture-form";

/**
 * What a scanned QR code says about a person (decision 62): a vCard 3.0 or 4.0, a MECARD, a LinkedIn
 * profile address, a `mailto:` or a bare e-mail address. Text only: nothing is fetched, whatever the code points at,
 * and every field is cut to the capture form's limits, so the founder sees at most what the form would keep and
 * confirms it before saving. Anything else is `unknown`, with no field filled.
 */
export type ScannedContact = {
  kind: "vcard" | "mecard" | "linkedin" | "mailto" | "email" | "unknown";
  name: string;
  email: string;
  linkedinUrl: string;
  /** Their title and organisation, one line, when the card has them: a start for the founder's note. */
  note: string;
};

/** A QR code holds at most about 3 KB; a longer text is not a QR code's, and only its start is read. */
export const SCANNED_TEXT_MAX_LENGTH = 4_096;

const EMPTY: ScannedContact = { kind: "unknown", name: "", email: "", linkedinUrl: "", note: "" };

/** Control characters (binary data decoded as text) become spaces; runs of spaces one. */
function oneLine(value: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u001f\u007f-\u009f\ufffd]+/g, " ").replace(/\s+/g, " ").trim().slice(0, max).trim();
}

function emailOrEmpty(value: string): string {
  const email = oneLine(value, LIMITS.email + 1).toLowerCase();
  return email.length <= LIMITS.email && EMAIL_PATTERN.test(email) ? email : "";
}

function linkedInOrEmpty(value: string): string {
  const url = oneLine(value, LIMITS.url + 1);
  return url.length <= LIMITS.url && isLinkedInUrl(url) ? url : "";
}

function contact(kind: ScannedContact["kind"], fields: Partial<Omit<ScannedContact, "kind">>): ScannedContact {
  return {
    kind,
    name: oneLine(fields.name ?? "", LIMITS.name),
    email: emailOrEmpty(fields.email ?? ""),
    linkedinUrl: linkedInOrEmpty(fields.linkedinUrl ?? ""),
    note: oneLine(fields.note ?? "", CAPTURE_NOTE_MAX_LENGTH),
  };
}

/** A vCard value with its escapes undone (`\,` `\;` `\\` `\n`). */
function unescapeVCard(value: string): string {
  return value.replace(/\\([\\,;nN])/g, (_, c: string) => (c === "n" || c === "N" ? " " : c));
}

/** Splits on a separator not escaped with a backslash. */
function splitUnescaped(value: string, separator: string): string[] {
  const parts: string[] = [];
  let current = "";
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (c === "\\" && i + 1 < value.length) {
      current += c + value[i + 1];
      i++;
    } else if (c === separator) {
      parts.push(current);
      current = "";
    } else current += c;
  }
  parts.push(current);
  return parts;
}

/** "Last;First;Middle;Prefix;Suffix" (vCard N) as "First Middle Last". */
function structuredName(value: string): string {
  const [last = "", first = "", middle = ""] = splitUnescaped(value, ";").map(unescapeVCard);
  return [first, middle, last].filter((part) => part.trim()).join(" ");
}

function parseVCard(text: string): ScannedContact {
  // Folded lines (a line break followed by a space or tab) are one line.
  const lines = text.replace(/\r\n?/g, "\n").replace(/\n[ \t]/g, "").split("\n");
  const fields: { name?: string; structured?: string; email?: string; linkedinUrl?: string; title?: string; org?: string } = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const [property = ""] = line.slice(0, colon).split(";");
    // A group prefix ("item1.EMAIL") names the same property.
    const name = property.replace(/^[^.]*\./, "").toUpperCase();
    const value = line.slice(colon + 1);
    if (name === "FN" && fields.name === undefined) fields.name = unescapeVCard(value);
    else if (name === "N" && fields.structured === undefined) fields.structured = structuredName(value);
    else if (name === "EMAIL" && !fields.email) fields.email = emailOrEmpty(unescapeVCard(value).replace(/^mailto:/i, "")) || undefined;
    else if ((name === "URL" || name === "X-SOCIALPROFILE" || name === "SOCIALPROFILE" || name === "IMPP") && !fields.linkedinUrl) {
      fields.linkedinUrl = linkedInOrEmpty(unescapeVCard(value)) || undefined;
    } else if (name === "TITLE" && fields.title === undefined) fields.title = unescapeVCard(value);
    else if (name === "ORG" && fields.org === undefined) fields.org = splitUnescaped(value, ";").map(unescapeVCard).filter((part) => part.trim()).join(", ");
  }
  const note = [fields.title, fields.org].filter((part) => part && part.trim()).join(", ");
  return contact("vcard", { name: fields.name?.trim() ? fields.name : (fields.structured ?? ""), email: fields.email, linkedinUrl: fields.linkedinUrl, note });
}

function parseMeCard(text: string): ScannedContact {
  const fields: { name?: string; email?: string; linkedinUrl?: string; note?: string; org?: string } = {};
  for (const part of splitUnescaped(text.slice("MECARD:".length), ";")) {
    const colon = part.indexOf(":");
    if (colon <= 0) continue;
    const key = part.slice(0, colon).toUpperCase();
    const value = part.slice(colon + 1).replace(/\\(.)/g, "$1");
    if (key === "N" && fields.name === undefined) {
      // "Last,First"
      const [last = "", first = ""] = value.split(",");
      fields.name = [first, last].filter((piece) => piece.trim()).join(" ");
    } else if (key === "EMAIL" && !fields.email) fields.email = emailOrEmpty(value) || undefined;
    else if (key === "URL" && !fields.linkedinUrl) fields.linkedinUrl = linkedInOrEmpty(value) || undefined;
    else if (key === "ORG" && fields.org === undefined) fields.org = value;
    else if (key === "NOTE" && fields.note === undefined) fields.note = value;
  }
  return contact("mecard", { name: fields.name, email: fields.email, linkedinUrl: fields.linkedinUrl, note: fields.org ?? fields.note });
}

function parseMailto(text: string): ScannedContact {
  const address = text.slice("mailto:".length).split("?")[0] ?? "";
  let decoded = address;
  try {
    decoded = decodeURIComponent(address);
  } catch {
    // A broken escape: read it as it stands.
  }
  // Several recipients: the first.
  return contact("mailto", { email: decoded.split(",")[0] ?? "" });
}

/** Reads a scanned QR code's text; never throws, never fetches. */
export function parseContactQr(scanned: string): ScannedContact {
  const text = scanned.slice(0, SCANNED_TEXT_MAX_LENGTH).replace(/^\ufeff/, "").trim();
  if (/^BEGIN:VCARD/i.test(text)) return parseVCard(text);
  if (/^MECARD:/i.test(text)) return parseMeCard(text);
  if (/^mailto:/i.test(text)) return parseMailto(text);
  if (isLinkedInUrl(text)) return contact("linkedin", { linkedinUrl: text });
  const email = emailOrEmpty(text);
  if (email) return contact("email", { email });
  return EMPTY;
}
