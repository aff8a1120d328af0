import type { AppIconConcept } from "~/modules/icons/concepts";

export const GENERATE_FAILED = "Failed to generate icon";

/**
 * Calls `generate-app-icon` and waits until the returned image has loaded, so the preview
 * and the toast appear together. Throws the server's message, or 'Failed to generate icon'.
 */
export async function generateIcon(concept: AppIconConcept): Promise<string> {
  let response: Response;
  try {
    response = await fetch("/api/functions/generate-app-icon", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      credentials: "same-origin",
      body: JSON.stringify({ concept }),
    });
  } catch {
    throw new Error(GENERATE_FAILED);
  }
  const body: unknown = await response.json().catch(() => null);
  const value = body && typeof body === "object" ? (body as Record<string, unknown>) : {};
  if (!response.ok || typeof value.imageUrl !== "string") {
    throw new Error(typeof value.error === "string" && value.error ? value.error : GENERATE_FAILED);
  }
  const image = new Image();
  image.src = value.imageUrl;
  try {
    await image.decode();
  } catch {
    throw new Error(GENERATE_FAILED);
  }
  return value.imageUrl;
}
