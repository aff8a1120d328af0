import { z } from "zod/mini";
import { optionalText, requiredText } from "~/modules/forms/fields";
import { isRecordId } from "~/modules/http/id-shape";
import { formatFounderDate } from "~/modules/time/founder-dates";

/** Label required (trimmed, at most 100), event tag optional (at most 50, empty → null). */
export const LABEL_REQUIRED = "Please enter a label for the QR code";

export const EVENT_END_INVALID = "Enter the event's last day as a date";
export const EVENT_END_BEFORE_CREATION = "The event can't end before the code was made";

/** A calendar day `YYYY-MM-DD` that exists (no 2026-02-30). */
export function isCalendarDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** The event's last day (a date field): empty or missing is none (null). */
export const eventEndsOn = z.pipe(
  z.optional(z.string().check(z.trim())),
  z.transform((value: string | undefined, ctx) => {
    if (!value) return null;
    if (!isCalendarDay(value)) ctx.issues.push({ code: "custom", message: EVENT_END_INVALID, input: value });
    return value;
  }),
);

/** An event's last day as the founder screens say it: 'Nov 27, 2026' (a calendar day, in no zone). */
export function formatEventDay(day: string): string {
  return isCalendarDay(day) ? formatFounderDate(`${day}T12:00:00Z`, "UTC") : day;
}

export const LABEL_MAX_LENGTH = 100;
export const LABEL_TOO_LONG = `Label must be at most ${LABEL_MAX_LENGTH} characters`;

export const qrCodeFormSchema = z.object({
  label: requiredText(LABEL_MAX_LENGTH, LABEL_TOO_LONG, LABEL_REQUIRED),
  eventTag: optionalText(50, "Event tag must be at most 50 characters"),
  eventEndsOn,
});

const qrCodeId = z.string("QR code not found").check(z.refine(isRecordId, "QR code not found"));

/** Archive, restore: the code leaves or rejoins the active list; it works either way. */
export const qrCodeActionSchema = z.object({ qrCodeId });
export type QrCodeActionInput = z.infer<typeof qrCodeActionSchema>;

/** A code's event end date, set or cleared on its row. */
export const qrCodeEventEndSchema = z.object({ qrCodeId, eventEndsOn });
export type QrCodeEventEndInput = z.infer<typeof qrCodeEventEndSchema>;

export const REPOINT_TARGET_REQUIRED = "Choose the project this code should open";
/** Re-pointing a code to another of the founder's published projects. */
export const repointQrCodeSchema = z.object({
  qrCodeId,
  targetProjectId: z.string(REPOINT_TARGET_REQUIRED).check(z.trim(), z.minLength(1, REPOINT_TARGET_REQUIRED)),
});
export type RepointQrCodeInput = z.infer<typeof repointQrCodeSchema>;
export const REPOINT_NOT_YOURS = "Choose a published project you own: a code moves only between projects you own";
export const REPOINT_DRAFT = "That project is a draft: publish it first, so the printed code opens a pitch";
export const REPOINT_SAME = "The code already opens this project";

export const DUPLICATE_LABEL = "A QR code with this label already exists";

/** Two labels name the same code when they match trimmed and case-folded. */
export function sameLabel(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

export type QrCodeFormInput = z.infer<typeof qrCodeFormSchema>;

/** The downloads' file name: `{slug}-{label with spaces as hyphens}-qr.{ext}`. */
export function qrDownloadName(slug: string, label: string, extension: "png" | "svg"): string {
  return `${slug}-${label.trim().replace(/\s+/g, "-")}-qr.${extension}`;
}

/** Print sheets (decision 11): an A6 card, or the same card centred on US Letter with cut marks. */
export const PRINT_SHEET_SIZES = ["a6", "letter"] as const;
export type PrintSheetSize = (typeof PRINT_SHEET_SIZES)[number];

/** `{slug}-{label with spaces as hyphens}-print-{size}.svg`, next to the spec's QR image names. */
export function printSheetName(slug: string, label: string, size: PrintSheetSize): string {
  return `${slug}-${label.trim().replace(/\s+/g, "-")}-print-${size}.svg`;
}

/** Where 'Download SVG' on the print page downloads one code's sheet. */
export function printSheetPath(projectId: string, qrCodeId: string, size: PrintSheetSize = "a6"): string {
  const path = `/project/${encodeURIComponent(projectId)}/qr/${encodeURIComponent(qrCodeId)}/print.svg`;
  return size === "a6" ? path : `${path}?size=${size}`;
}

/** The print-ready page of one code's sheet: the sheet, a Print button, and the SVG download. */
export function printPagePath(projectId: string, qrCodeId: string, size: PrintSheetSize = "a6"): string {
  const path = `/project/${encodeURIComponent(projectId)}/qr/${encodeURIComponent(qrCodeId)}/print`;
  return size === "a6" ? path : `${path}?size=${size}`;
}

/** The event sheet's paper. */
export const EVENT_SHEET_SIZES = ["a4", "letter"] as const;
export type EventSheetSize = (typeof EVENT_SHEET_SIZES)[number];

/** The event sheet: every chosen code of a project on A4 or US Letter pages. */
export function eventSheetPath(projectId: string, options: { size?: EventSheetSize; codes?: readonly string[] } = {}): string {
  const query = new URLSearchParams();
  if (options.size && options.size !== "a4") query.set("size", options.size);
  for (const code of options.codes ?? []) query.append("code", code);
  const search = query.toString();
  return `/project/${encodeURIComponent(projectId)}/qr/sheet${search ? `?${search}` : ""}`;
}

/** One page of the event sheet as an SVG download. */
export function eventSheetSvgPath(projectId: string, size: EventSheetSize, codes: readonly string[], page: number): string {
  const query = new URLSearchParams({ size, page: String(page) });
  for (const code of codes) query.append("code", code);
  return `/project/${encodeURIComponent(projectId)}/qr/sheet.svg?${query.toString()}`;
}

/** The codes a sheet address names (`?code=…`, repeated); null when it names none, which means every active code. */
export function chosenSheetCodes(params: URLSearchParams): string[] | null {
  const codes = params.getAll("code").filter((code) => isRecordId(code));
  if (codes.length) return [...new Set(codes)];
  // The form's own submission with every box unticked names no code but says it was chosen: an empty sheet.
  return params.get("chosen") === "1" ? [] : null;
}
