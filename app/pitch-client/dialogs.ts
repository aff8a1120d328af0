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
 * A dialog is the server's own markup for `?dialog=…`, cloned from its `<template>`; while it is open the
 * rest of the page is `inert` (no focus or clicks outside), Escape, the overlay and the Close link close it,
 * and focus goes back to what opened it. Opening pushes a history entry, so the back button closes it.
 */
export type PitchDialogControl = {
  /** Opens a dialog as a tap on its link does (a history entry, so Back closes it); null if it cannot be shown. */
  open(name: DialogName): OpenedDialog | null;
  /** Whether a dialog is open now. */
  isOpen(): boolean;
};

export function enhanceDialogs(onOpen: (dialog: OpenedDialog) => void): PitchDialogControl {
  let current: { name: DialogName; host: HTMLElement; opener: HTMLElement | null; inerted: HTMLElement[] } | null = null;
  let closing = false;

  function show(name: DialogName, opener: HTMLElement | null): OpenedDialog | null {
    hide(false);
    const template = document.querySelector<HTMLTemplateElement>(`template[data-pitch-dialog="${name}"]`);
    if (!template) return null;
    const host = document.createElement("div");
    host.dataset.dialogHost = name;
    host.append(template.content.cloneNode(true));
    const inerted: HTMLElement[] = [];
    for (const element of document.body.children) {
      if (element instanceof HTMLElement && element.id !== "pitch-toasts" && !element.inert) {
        element.inert = true;
        inerted.push(element);
      }
    }
    document.body.append(host);
    document.documentElement.style.overflow = "hidden";
    current = { name, host, opener, inerted };

    const content = host.querySelector<HTMLElement>('[role="dialog"]');
    if (!content) return null;
    if (!content.hasAttribute("tabindex")) content.tabIndex = -1;
    host.addEventListener("click", (event) => {
      const target = event.target as Element;
      if (!content.contains(target)) return close();
      // The Close and Done links lead to this page without a dialog: close in place instead.
      const link = target.closest("a");
      if (link && link.origin === location.origin && link.pathname === location.pathname && !new URL(link.href).searchParams.has("dialog")) {
        event.preventDefault();
        close();
      }
    });
    // A mouse or trackpad starts in the first field; a touch screen focuses the dialog itself, so the
    // on-screen keyboard does not cover the sheet before the visitor has read it (as the React page does).
    const finePointer = matchMedia("(pointer: fine)").matches;
    const first = finePointer ? content.querySelector<HTMLElement>("[data-autofocus]") : null;
    (first ?? content).focus({ preventScroll: true });
    const opened = { name, content, close };
    onOpen(opened);
    return opened;
  }

  function hide(restoreFocus = true) {
    if (!current) return;
    const { host, opener, inerted } = current;
    current = null;
    host.remove();
    for (const element of inerted) element.inert = false;
    document.documentElement.style.overflow = "";
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

  function followAddress() {
    closing = false;
    const name = new URLSearchParams(location.search).get("dialog");
    if (!isDialogName(name)) hide();
    else if (current?.name !== name) show(name, null);
  }

  document.addEventListener("click", (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = (event.target as Element).closest<HTMLAnchorElement>('a[aria-haspopup="dialog"]');
    const name = link ? new URL(link.href).searchParams.get("dialog") : null;
    if (!link || !isDialogName(name) || current) return;
    event.preventDefault();
    history.pushState({ pitchDialog: name }, "", addressWith(name));
    show(name, link);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && current) {
      event.preventDefault();
      close();
    }
  });
  addEventListener("popstate", followAddress);
  // A page reopened from the service worker's copy may carry `?dialog=`.
  followAddress();
  return {
    open(name) {
      history.pushState({ pitchDialog: name }, "", addressWith(name));
      return show(name, null);
    },
    isOpen: () => current !== null,
  };
}
