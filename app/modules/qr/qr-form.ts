import { z } from "zod/mini";

/** SPEC.md sections 5 and 9: label required (trimmed, at most 100), event tag optional (at most 50, empty → null). */
export const LABEL_REQUIRED = "Please enter a label for the QR code";

export const qrCodeFormSchema = z.object({
  label: z.string(LABEL_REQUIRED).check(z.trim(), z.minLength(1, LABEL_REQUIRED), z.maxLength(100, "Label must be at most 100 characters")),
  eventTag: z.pipe(
    z.optional(z.string().check(z.trim(), z.maxLength(50, "Event tag must be at most 50 characters"))),
    z.transform((value: string | undefined) => value || null),
  ),
});

export type QrCodeFormInput = z.infer<typeof qrCodeFormSchema>;

/** `{slug}-{label with spaces as hyphens}-qr.{ext}`, as SPEC.md section 7 names the downloads. */
export function qrDownloadName(slug: string, label: string, extension: "png" | "svg"): string {
  return `${slug}-${label.trim().replace(/\s+/g, "-")}-qr.${extension}`;
}
