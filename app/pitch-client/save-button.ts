import { isPitchSaved, readSavedList, savedListStorage } from "~/modules/saved/saved-list";
import type * as SavedListClient from "./saved-list-client";

/**
 * The pitch page's Save button as the enhancement module wires it: shown (it is hidden without the
 * script, and removed where the browser keeps no site data) in its state, and the saved list's client, loaded by address on the first tap, does the rest; the page's
 * own script stays small (decision 13).
 */

export type LoadSavedListClient = () => Promise<typeof SavedListClient>;

export function showSaveState(button: HTMLButtonElement, saved: boolean): void {
  button.setAttribute("aria-pressed", String(saved));
  const label = button.querySelector("[data-save-label]");
  if (label) label.textContent = saved ? "Saved" : "Save";
}

export function enhanceSaveButton(page: HTMLElement, load: LoadSavedListClient, keepSavedListOffline: () => Promise<void>): void {
  const controls = page.querySelector<HTMLElement>("[data-save-controls]");
  const button = controls?.querySelector<HTMLButtonElement>("[data-save-pitch]");
  const slug = page.dataset.pitchPage;
  if (!controls || !button || !slug) return;
  // A browser that keeps no site data has no list to save to: no Save that silently does nothing.
  if (!savedListStorage()) return controls.remove();
  showSaveState(button, isPitchSaved(readSavedList(savedListStorage()), slug));
  controls.hidden = false;
  button.addEventListener("click", () => {
    void load().then((client) => client.toggleSave(page, button, keepSavedListOffline));
  });
}

/** Saves made offline (not counted yet) are sent once the page is online; the client loads only if there are any. */
export function sendPendingSaves(load: LoadSavedListClient): void {
  if (!navigator.onLine || readSavedList(savedListStorage()).every((saved) => saved.counted)) return;
  void load().then((client) => client.sendPendingSaves());
}
