import {
  DIRECT_VIA,
  isPitchSaved,
  pitchPath,
  readSavedList,
  savedListStorage,
  withoutPitch,
  withPitchSaved,
  withSaveCounted,
  writeSavedList,
  type SavedPitch,
} from "~/modules/saved/saved-list";
import { showSaveState } from "./save-button";
import { showToast } from "~/browser/toasts";
import { arrivalQrCodeId } from "~/browser/arrival";

/**
 * The pitch page's Save once tapped: the pitch goes into this browser's list, and a beacon tells the server, which
 * counts the visitor once and names the event of the QR code the page was opened through. A save made offline
 * stays marked as not counted in the list itself, and is sent again when the page (or `/saved`) is next online.
 */

const VIA_PENDING_EVENT = "Event QR code";

type SaveAnswer = { counted?: boolean; via?: string };

/** Sends the save of one pitch; resolves the event's name once the server has counted it, else null. */
async function sendSave(pitch: Pick<SavedPitch, "projectId" | "qrCodeId">): Promise<string | null> {
  try {
    const response = await fetch("/api/functions/save-pitch", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ projectId: pitch.projectId, qrCodeId: pitch.qrCodeId }),
      credentials: "same-origin",
      keepalive: true,
    });
    if (!response.ok) return null;
    const answer = (await response.json()) as SaveAnswer;
    return answer.counted ? (answer.via ?? DIRECT_VIA) : null;
  } catch {
    return null;
  }
}

/** Sends every save not yet counted (made offline, or while the server could not be reached). */
export async function sendPendingSaves(): Promise<void> {
  if (!navigator.onLine) return;
  for (const pitch of readSavedList(savedListStorage()).filter((saved) => !saved.counted)) {
    const via = await sendSave(pitch);
    // Read again: the visitor may have removed it meanwhile.
    if (via !== null) writeSavedList(savedListStorage(), withSaveCounted(readSavedList(savedListStorage()), pitch.slug, via));
  }
}

/**
 * A tap on Save: saves the pitch (and tells the server), or removes it when it is already in the list. The first
 * save also keeps `/saved` for offline use (`keepSavedListOffline`, from the enhancement module).
 */
export function toggleSave(page: HTMLElement, button: HTMLButtonElement, keepSavedListOffline: () => Promise<void>): void {
  const slug = page.dataset.pitchPage;
  const projectId = page.dataset.projectId;
  if (!slug || !projectId) return;
  const storage = savedListStorage();
  const list = readSavedList(storage);
  if (isPitchSaved(list, slug)) {
    writeSavedList(storage, withoutPitch(list, slug));
    showSaveState(button, false);
    showToast("success", "Removed from your saved pitches.");
    return;
  }
  const qrCodeId = arrivalQrCodeId();
  const pitch: SavedPitch = {
    slug,
    projectId,
    title: document.getElementById("pitch-title")?.textContent?.trim() ?? slug,
    oneLiner: document.getElementById("pitch-one-liner")?.textContent?.trim() ?? "",
    url: pitchPath(slug),
    savedAt: new Date().toISOString(),
    via: qrCodeId ? VIA_PENDING_EVENT : DIRECT_VIA,
    qrCodeId,
    counted: false,
  };
  if (!writeSavedList(storage, withPitchSaved(list, pitch))) {
    showToast("error", "This browser does not let the page keep anything, so the pitch cannot be saved here.");
    return;
  }
  showSaveState(button, true);
  showToast("success", "Saved. Your list is under Saved pitches, also offline.");
  void sendPendingSaves();
  void keepSavedListOffline();
}
