/**
 * `/saved`'s list, part of the saved list's client (`saved-list-client.ts`): draws the saved pitches from this
 * browser's storage, newest first, removes one (with Undo), and sends the list by e-mail. No framework (decision 13).
 */
import { formatPitchTime } from "~/modules/time/relative-time";
import { readSavedList, savedListStorage, withoutPitch, withPitchSaved, writeSavedList, type SavedPitch } from "~/modules/saved/saved-list";
import { SAVED_LIST_MESSAGES, savedListCountError, savedListEmailError } from "~/modules/saved/saved-list-rules";
import { markInvalid, markValid } from "./field-error";
import { showToast } from "~/browser/toasts";

const REMOVE_ICON =
  '<svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M3 6h18M8 6V4h8v2M19 6l-1 14H6L5 6"/></svg>';

function savedItem(pitch: SavedPitch, now: Date, onRemove: (pitch: SavedPitch) => void): HTMLLIElement {
  const item = document.createElement("li");
  item.className = "relative rounded-2xl border border-slate-200 bg-white p-4 pr-14 shadow-sm";
  item.innerHTML = `<h2 class="font-semibold text-slate-950"><a class="after:absolute after:inset-0 hover:text-brand-700"></a></h2><p class="mt-1 text-sm text-slate-600"></p><p class="mt-2 text-xs font-medium text-slate-500"><time></time> · <span></span></p><button type="button" class="absolute right-2 top-2 z-10 inline-flex size-10 items-center justify-center rounded-lg text-slate-500 hover:bg-slate-100 hover:text-red-700">${REMOVE_ICON}</button>`;
  const link = item.querySelector("a")!;
  link.href = pitch.url;
  link.textContent = pitch.title;
  const oneLiner = item.querySelector("p")!;
  oneLiner.textContent = pitch.oneLiner;
  oneLiner.hidden = !pitch.oneLiner;
  const time = item.querySelector("time")!;
  time.dateTime = pitch.savedAt;
  time.textContent = `Saved ${formatPitchTime(pitch.savedAt, now)}`;
  item.querySelector("span")!.textContent = `via ${pitch.via}`;
  const remove = item.querySelector("button")!;
  remove.setAttribute("aria-label", `Remove ${pitch.title}`);
  remove.addEventListener("click", () => onRemove(pitch));
  return item;
}

export function showSavedList(root: HTMLElement): void {
  const items = root.querySelector<HTMLOListElement>("[data-saved-items]");
  const empty = root.querySelector<HTMLElement>("[data-saved-empty]");
  const form = root.querySelector<HTMLFormElement>("[data-saved-mail]");
  if (!items || !empty || !form) return;
  const storage = savedListStorage();

  const draw = () => {
    const list = readSavedList(storage);
    const now = new Date();
    items.replaceChildren(...list.map((pitch) => savedItem(pitch, now, remove)));
    items.hidden = list.length === 0;
    empty.hidden = list.length > 0;
    form.hidden = list.length === 0;
  };
  const remove = (pitch: SavedPitch) => {
    writeSavedList(storage, withoutPitch(readSavedList(storage), pitch.slug));
    draw();
    showToast("success", `Removed ${pitch.title}.`, 6_000, {
      label: "Undo",
      run: () => {
        writeSavedList(storage, withPitchSaved(readSavedList(storage), pitch));
        draw();
      },
    });
  };

  draw();
  // Saved in another tab: the list follows.
  addEventListener("storage", draw);
  setInterval(draw, 60_000);
  enhanceMailForm(form, () => readSavedList(storage));
  root.dataset.savedReady = "true";
}

function enhanceMailForm(form: HTMLFormElement, savedList: () => SavedPitch[]) {
  const input = form.querySelector<HTMLInputElement>("input[name=email]")!;
  const error = form.querySelector<HTMLElement>("[data-saved-mail-error]")!;
  const button = form.querySelector<HTMLButtonElement>("button[type=submit]")!;
  const showError = (message: string | null) => {
    error.textContent = message ?? "";
    if (message) markInvalid(input, error.id);
    else markValid(input);
  };

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const list = savedList();
    const problem = savedListEmailError(input.value) ?? savedListCountError(list.length);
    if (problem) {
      showError(problem);
      input.focus();
      return;
    }
    if (!navigator.onLine) return showError(SAVED_LIST_MESSAGES.offline);
    showError(null);
    button.disabled = true;
    void (async () => {
      try {
        const response = await fetch("/api/functions/email-saved-list", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ email: input.value.trim(), slugs: list.map((pitch) => pitch.slug) }),
          credentials: "same-origin",
        });
        const answer = (await response.json().catch(() => ({}))) as { error?: string; status?: string };
        if (!response.ok) return showError(answer.error ?? SAVED_LIST_MESSAGES.failed);
        // An address this browser has not confirmed gets a link first (decision 38).
        showToast("success", answer.status === "confirm" ? SAVED_LIST_MESSAGES.confirm : SAVED_LIST_MESSAGES.sent);
      } catch {
        showError(navigator.onLine ? SAVED_LIST_MESSAGES.failed : SAVED_LIST_MESSAGES.offline);
      } finally {
        button.disabled = false;
      }
    })();
  });
}
