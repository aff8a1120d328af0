import { z } from "zod/mini";
import { optionalText, requiredText } from "~/modules/forms/fields";

/** SPEC.md sections 5 and 9: label required (trimmed, at most 100), event tag optional (at most 50, empty → null). */
export const LABEL_REQUIRED = "Please enter a label for the QR code";

export const qrCodeFormSchema = z.object({
  label: requiredText(100, "Label must be at most 100 characters", LABEL_REQUIRED),
  eventTag: optionalText(50, "Event tag must be at most 50 characters"),
});

export const DUPLICATE_LABEL = "A QR code with this label already exists";

/** Two labels name the same code when they match trimmed and case-folded. */
export function sameLabel(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

export type QrCodeFormInput = z.infer<typeof qrCodeFormSchema>;

/** `{slug}-{label with spaces as hyphens}-qr.{ext}`, as SPEC.md section 7 names the downloads. */
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

/** The print-ready page of one code's sheet (issue 13): the sheet, a Print button, and the SVG download. */
export function printPagePath(projectId: string, qrCodeId: string, size: PrintSheetSize = "a6"): string {
  const path = `/project/${encodeURIComponent(projectId)}/qr/${encodeURIComponent(qrCodeId)}/print`;
  return size === "a6" ? path : `${path}?size=${size}`;
}
