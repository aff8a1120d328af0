/**
 * How a QR code is named wherever a person, an action or a scan is credited to it (decision 54): its label and its
 * event tag, "Booth · demoday-2026", or the label alone when it has no tag. Two codes with one event tag stay apart.
 */
export function codeName(label: string, eventTag: string | null): string {
  return eventTag ? `${label} · ${eventTag}` : label;
}

/** The project's codes by id, each with its name: what `nameSource` names `qr:` sources from. */
export function codeNamesOf(codes: readonly { id: string; label: string; event_tag: string | null }[]): Map<string, string> {
  return new Map(codes.map((code) => [code.id, codeName(code.label, code.event_tag)]));
}

/** The plain link to the pitch, as a source's name (decision 16). */
export const DIRECT_EVENT = "Direct link";
/** What a code deleted after it brought people is called where they are listed. */
export const DELETED_CODE = "Deleted QR code";
/** Actions no page load tells the source of (decision 16). */
export const NOT_ATTRIBUTED = "Not attributed";

/** Where someone came from, named the same in the inbox, the CSV and the funnel: a code, a deleted code, the plain link, or nothing known. */
export type SourceName = { kind: "code" | "deleted-code" | "direct" | "unknown"; name: string };

export const DIRECT_SOURCE_NAME: SourceName = { kind: "direct", name: DIRECT_EVENT };
export const UNKNOWN_SOURCE_NAME: SourceName = { kind: "unknown", name: NOT_ATTRIBUTED };
