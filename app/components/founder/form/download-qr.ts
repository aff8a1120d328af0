/** What `/api/functions/generate-qr-code` answers (SPEC.md section 7). */
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

function saveAs(href: string, fileName: string) {
  const link = document.createElement("a");
  link.href = href;
  link.download = fileName;
  link.rel = "noopener";
  link.style.display = "none";
  document.body.append(link);
  link.click();
  link.remove();
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
  saveAs(body.png, body.pngFileName);
  const svgUrl = URL.createObjectURL(new Blob([body.svg], { type: "image/svg+xml" }));
  saveAs(svgUrl, body.svgFileName);
  // The download has started by now; give the browser a moment before releasing the Blob.
  setTimeout(() => URL.revokeObjectURL(svgUrl), 10_000);
}
