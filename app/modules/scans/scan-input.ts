import { z } from "zod/mini";
import { isRecordId, isViewerFingerprint } from "~/modules/http/id-shape";
import type { Audience } from "~/modules/analytics/audience";

/** The track-scan function's body. The fingerprint is the first 32 characters of an encoded trait string. */
export const trackScanSchema = z.object({
  projectId: z.string("projectId is required").check(z.trim(), z.minLength(1, "projectId is required"), z.refine(isRecordId, "Unknown project")),
  qrCodeId: z.nullish(z.string().check(z.trim(), z.refine((id) => id === "" || isRecordId(id), "Unknown QR code"))),
  viewerFingerprint: z.nullish(
    z.string().check(z.trim(), z.maxLength(64, "viewerFingerprint is too long"), z.refine((fingerprint) => fingerprint === "" || isViewerFingerprint(fingerprint), "viewerFingerprint is malformed")),
  ),
});

/**
 * One scan. `addressHash` is the daily-salted hash of the visitor's address and user agent (decision 15): with
 * a fingerprint it is remembered beside a new viewer; without one (a returning browser that keeps no cookie)
 * the scan counts for a viewer seen with that hash today whose cookie never came back, or for the hash itself
 * (decision 52). `cookieKept`: the browser sent its viewer cookie back, so the hash never stands for it again.
 */
export type ScanInput = {
  projectId: string;
  qrCodeId: string | null;
  viewerFingerprint: string | null;
  addressHash?: string | null;
  cookieKept?: boolean;
  /**
   * A cookie-less reload's viewer id as issued in the cookie set on that load, hashed: when the address hash finds no
   * viewer, the scan counts for this one, so the browser coming back with that cookie is the same viewer.
   */
  issuedFingerprint?: string | null;
  /** How it arrived, from the request's user agent (decision 67): counted with the scan, in its transaction. */
  audience?: Audience | null;
  /** When the door saw the page load (the recorder stamps it as queued); else the batch's instant. */
  arrivedAt?: Date;
};

/** Why a page load of a published pitch was not counted as a scan (decision 15). */
export type ExclusionReason = "bot" | "preview" | "prefetch" | "owner" | "app";

export function normalizeScan(input: z.infer<typeof trackScanSchema>): ScanInput {
  return {
    projectId: input.projectId,
    qrCodeId: input.qrCodeId || null,
    viewerFingerprint: input.viewerFingerprint ? input.viewerFingerprint.slice(0, 32) : null,
  };
}
