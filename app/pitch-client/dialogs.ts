import { focusDialogStart, showDialogModal } from "~/browser/dialog";

export const DIALOG_NAMES = ["intro", "subscribe", "signal", "phone"] as const;
export type DialogName = (typeof DIALOG_NAMES)[number];

export type OpenedDialog = { name: DialogName; content: HTMLElement; close: () => void };

const isDialogName = (value: string | null): value is DialogName => DIALOG_NAMES.includes(value as DialogName);

/** This page's address with `?dialog=name` (or without any dialog), other parameters (`qr`) kept. */
function addressWith(name: DialogName | null): string {
  const url = new URL(location.href);
  url.searchParams.delete("sent");
  if (name) url.searchParams.set("dialog", name);
  else url.searchParams.delete("dialog");
  return url.pathname + url.search + url.hash;
}

/**
 * The pitch page's dialogs without React (decision 6 still holds: the state is `?dialog=` in the address).
 * A dialog is the server's own `<dialog>` for `?dialog=…`, cloned from its `<template>` and shown modal as the
 * React page shows it (`showDialogModal`, decision 47): the rest of the page is inert, Escape, the overlay and
 * the Close link close it, and focus goes back to what opened it. Opening pushes a history entry, so the back
 * button closes it.
 */
export type PitchDialogControl = {
  /** Opens a dialog as a tap on its link does (a history entry, so Back closes it); null if it cannot be shown. */
  open(name: DialogName): Promise<OpenedDialog | null>;
  /** Whether a dialog is open now. */
  isOpen(): boolean;
};

const templateOf = (name: DialogName) => document.querySelector<HTMLTemplateElement>(`template[data-pitch-dialog="${name}"]`);

let loading: Promise<boolean> | null = null;

/**
 * The dialogs' markup is not in the document (decision 51): it is fetched once, when a visitor first heads for a
 * dialog (a finger or pointer on its link, focus, or an address with `?dialog=`), and kept in the page. Offline,
 * the service worker answers with the copy it keeps beside the page. False when it cannot be had.
 */
export function loadDialogTemplates(page: HTMLElement): Promise<boolean> {
  const address = page.dataset.dialogs;
  if (!address) return Promise.resolve(false);
  loading ??= fetch(address, { credentials: "omit" })
    .then(async (response) => {
      if (!response.ok) throw new Error(`The dialogs answered ${response.status}`);
      const holder = document.createElement("div");
      holder.hidden = true;
      holder.dataset.pitchDialogs = "";
      holder.innerHTML = await response.text();
      document.body.append(holder);
      return true;
    })
    .catch((error: unknown) => {
      console.warn("The dialogs could not be loaded", error);
      loading = null;
      return false;
    });
  return loading;
}

export function enhanceDialogs(page: HTMLElement, onOpen: (dialog: OpenedDialog) => void): PitchDialogControl {
  let current: { name: DialogName; dialog: HTMLDialogElement; opener: HTMLElement | null; release: () => void } | null = null;
  let closing = false;

  function show(name: DialogName, opener: HTMLElement | null): OpenedDialog | null {
    hide(false);
    const dialog = templateOf(name)?.content.querySelector("dialog")?.cloneNode(true) as HTMLDialogElement | undefined;
    const content = dialog?.querySelector<HTMLElement>("[data-dialog-content]");
    if (!dialog || !content) return null;
    document.body.append(dialog);
    current = { name, dialog, opener, release: showDialogModal(dialog, close) };
    dialog.addEventListener("click", (event) => {
      // The Close and Done links lead to this page without a dialog: close in place instead.
      const link = (event.target as Element).closest("a");
      if (link && link.origin === location.origin && link.pathname === location.pathname && !new URL(link.href).searchParams.has("dialog")) {
        event.preventDefault();
        close();
      }
    });
    focusDialogStart(content);
    const opened = { name, content, close };
    onOpen(opened);
    return opened;
  }

  function hide(restoreFocus = true) {
    if (!current) return;
    const { dialog, opener, release } = current;
    current = null;
    release();
    dialog.remove();
    if (restoreFocus && opener?.isConnected) opener.focus({ preventScroll: true });
  }

  function close() {
    if (!current || closing) return;
    if ((history.state as { pitchDialog?: string } | null)?.pitchDialog === current.name) {
      // Escape pressed twice before the first close lands must not go back two pages.
      closing = true;
      history.back();
    } else {
      history.replaceState(null, "", addressWith(null));
      hide();
    }
  }

  /** The dialog the address names, once its markup is here (the address may have moved on meanwhile). */
  async function followAddress() {
    closing = false;
    const name = new URLSearchParams(location.search).get("dialog");
    if (!isDialogName(name)) return hide();
    if (current?.name === name || !(await loadDialogTemplates(page))) return;
    if (new URLSearchParams(location.search).get("dialog") === name && current?.name !== name) show(name, null);
  }

  const dialogLinkOf = (target: EventTarget | null) => (target instanceof Element ? target.closest<HTMLAnchorElement>('a[aria-haspopup="dialog"]') : null);
  // The markup is on its way by the time the tap ends: a finger down (or a mouse over, or focus) on a dialog link.
  const prepare = (event: Event) => void (dialogLinkOf(event.target) && loadDialogTemplates(page));
  for (const type of ["pointerdown", "mouseover", "focusin"]) document.addEventListener(type, prepare, { passive: true });

  document.addEventListener("click", (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = dialogLinkOf(event.target);
    const name = link ? new URL(link.href).searchParams.get("dialog") : null;
    if (!link || !isDialogName(name) || current) return;
    event.preventDefault();
    void loadDialogTemplates(page).then((loaded) => {
      // Without its markup the link goes on to the server's page with the dialog open, as without a script.
      if (!loaded || !templateOf(name)) return location.assign(link.href);
      if (current) return;
      history.pushState({ pitchDialog: name }, "", addressWith(name));
      show(name, link);
    });
  });
  addEventListener("popstate", () => void followAddress());
  // A page reopened from the service worker's copy may carry `?dialog=`.
  void followAddress();
  return {
    async open(name) {
      if (!(await loadDialogTemplates(page)) || current) return null;
      history.pushState({ pitchDialog: name }, "", addressWith(name));
      return show(name, null);
    },
    isOpen: () => current !== null,
  };
}
