import { saveBlobAs, saveUrlAs } from "~/components/save-file";
/** What `/api/functions/generate-qr-code` answers. */
type QrImagesResponse = { png: string; svg: string; pngFileName: string; svgFileName: string; url: string };

function isQrImages(body: unknown): body is QrImagesResponse {
  if (!body || typeof body !== "object") return false;
  const value = body as Record<string, unknown>;
  return (
    typeof value.png === "string" &&
    value.png.startsWith("data:image/png") &&
    typeof value.svg === "string" &&
    typeof value.pngFileName === "string" &&
    typeof value.svgFileName === "string"
  );
}


/** Asks the server for a tracked code's images and saves both: the PNG from its data URL, the SVG as a Blob. */
export async function downloadQrImages(slug: string, qrCodeId: string): Promise<void> {
  const response = await fetch("/api/functions/generate-qr-code", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    credentials: "same-origin",
    body: JSON.stringify({ slug, qrCodeId }),
  });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok || !isQrImages(body)) {
    const message = body && typeof body === "object" && "error" in body ? String(body.error) : `HTTP ${response.status}`;
    throw new Error(message);
  }
  saveUrlAs(body.png, body.pngFileName);
  saveBlobAs(new Blob([body.svg], { type: "image/svg+xml" }), body.svgFileName);
  // The download has started by now; give the browser a moment before releasing the Blob.
}
