import { ROLE_TAGS } from "~/modules/contacts/visitor-form-rules";

/**
 * The server's blurb starts 'Intro: {name} ({tags}) → {title}'. Without JavaScript the page only has the
 * blurb (from a one-shot cookie), so the name for the e-mail subject is read back from it.
 */
export function nameFromBlurb(blurb: string, projectTitle: string): string | null {
  const first = blurb.split("\n")[0] ?? "";
  const suffix = ` → ${projectTitle}`;
  if (!first.startsWith("Intro: ") || !first.endsWith(suffix)) return null;
  const middle = first.slice("Intro: ".length, first.length - suffix.length);
  const tag = `(?:${ROLE_TAGS.join("|")})`;
  return middle.replace(new RegExp(`\\s\\(${tag}(?:, ${tag})*\\)$`), "").trim() || null;
}

/** The 'Open in email' subject: 'Intro: {name} → {project title}'. */
export function introSubject(blurb: string, projectTitle: string, submittedName: string | null): string {
  const name = submittedName?.trim() || nameFromBlurb(blurb, projectTitle);
  return name ? `Intro: ${name} → ${projectTitle}` : (blurb.split("\n")[0] || `Intro → ${projectTitle}`);
}

/**
 * A mailto: link with no recipient (the visitor picks one), the subject and the blurb as body, every part
 * percent-encoded and line breaks as CRLF (RFC 6068).
 */
export function introMailto(subject: string, blurb: string): string {
  const body = blurb.replace(/\r?\n/g, "\r\n");
  return `mailto:?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}
