import { viewerFingerprint } from "~/modules/scans/viewer-fingerprint";

/** Projects already counted during this page load (SPEC.md section 4: once per project id). */
const tracked = new Set<string>();

/**
 * Records one scan for the project: fire-and-forget, never slows or breaks the page (errors are only
 * logged, SPEC.md section 8). `keepalive` lets the request finish when the visitor leaves at once.
 */
export function trackScanOnce(projectId: string, qrCodeId: string | null): void {
  if (tracked.has(projectId)) return;
  tracked.add(projectId);
  void (async () => {
    try {
      const fingerprint = await viewerFingerprint().catch(() => null);
      const response = await fetch("/api/functions/track-scan", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ projectId, qrCodeId, viewerFingerprint: fingerprint }),
        keepalive: true,
        credentials: "same-origin",
      });
      if (!response.ok) console.warn(`Scan tracking failed: HTTP ${response.status}`);
    } catch (error) {
      console.warn("Scan tracking failed", error);
    }
  })();
}
