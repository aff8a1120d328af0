import { showToast } from "./toasts";

/** What a visitor reads when the browser would not copy, in both renderers. */
export const COPY_FAILED_MESSAGE = "Failed to copy. Please copy manually";

/** How long a Copy button says 'Copied!'. */
export const COPIED_MS = 2_000;

/** Copies text to the clipboard; false when the browser has no clipboard or refuses. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** The pitch page's copy failure, in its own toasts (both renderers). */
export function toastCopyFailure(): void {
  showToast("error", COPY_FAILED_MESSAGE);
}
