import { useRef } from "react";
import { useLocation, useNavigate, useNavigation, useSearchParams, type To } from "react-router";
import type { VisitorActionResult } from "~/modules/contacts/visitor-form-rules";
import { preloadFormsOnIntent } from "./lazy-forms";

export const PITCH_DIALOGS = ["intro", "subscribe", "signal", "phone"] as const;
export type PitchDialogName = (typeof PITCH_DIALOGS)[number];

/** Marks a history entry opened by one of our dialog links, so closing can go back instead of piling up entries. */
export const DIALOG_LINK_STATE = { pitchDialog: true } as const;

function isDialogName(value: string | null): value is PitchDialogName {
  return PITCH_DIALOGS.includes(value as PitchDialogName);
}

export type PitchDialogs = {
  /** The dialog shown: `?dialog=`, or the form whose plain (no-JS) POST just failed. */
  open: PitchDialogName | null;
  /** Where a link opening `name` goes: this page with `?dialog=name`, other parameters (`qr`) kept. */
  linkTo: (name: PitchDialogName) => To;
  /** This page without `?dialog` and `?sent`: the no-JS close link. */
  closeTo: To;
  /** Closes the open dialog (with JavaScript). */
  close: () => void;
};

/**
 * What a link opening the `name` dialog carries: where it goes, the state that marks its history entry as ours, no
 * scroll to the top, and that it opens a dialog; a form's link also loads the forms as the visitor reaches for it.
 */
export function dialogLink(dialogs: PitchDialogs, name: PitchDialogName) {
  const link = { to: dialogs.linkTo(name), state: DIALOG_LINK_STATE, preventScrollReset: true, "aria-haspopup": "dialog" } as const;
  return name === "phone" ? link : { ...link, ...preloadFormsOnIntent };
}

/**
 * Dialog state lives in the URL (`?dialog=intro|subscribe|signal|phone`), so the action links work before
 * JavaScript loads: the server renders the page with that dialog open.
 */
export function usePitchDialogs(actionData: VisitorActionResult | undefined): PitchDialogs {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const closingFrom = useRef<string | null>(null);

  // Opening or closing a dialog is a navigation, and the root loader runs before it lands: show the
  // dialog's new state at once rather than after that round trip (bad conference Wi-Fi).
  const pending =
    navigation.state === "loading" && !navigation.formMethod && navigation.location.pathname === location.pathname ? navigation.location : null;
  const param = pending ? new URLSearchParams(pending.search).get("dialog") : searchParams.get("dialog");
  const open = isDialogName(param) ? param : actionData && !actionData.ok ? actionData.intent : null;

  const rest = new URLSearchParams(searchParams);
  rest.delete("dialog");
  rest.delete("sent");
  const restQuery = rest.toString();
  const closeTo: To = { pathname: location.pathname, search: restQuery ? `?${restQuery}` : "" };

  const linkTo = (name: PitchDialogName): To => {
    const next = new URLSearchParams(rest);
    next.set("dialog", name);
    return { pathname: location.pathname, search: `?${next.toString()}` };
  };

  const close = () => {
    // Escape pressed twice before the first close lands must not go back two pages.
    if (closingFrom.current === location.key) return;
    closingFrom.current = location.key;
    const openedByOurLink = (location.state as { pitchDialog?: boolean } | null)?.pitchDialog === true;
    const historyIndex = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (openedByOurLink && historyIndex > 0) navigate(-1);
    else void navigate(closeTo, { replace: true, preventScrollReset: true });
  };

  return { open, linkTo, closeTo, close };
}
