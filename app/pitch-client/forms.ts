import { introMailto, introSubject } from "~/browser/intro-blurb";
import { guardConfirmationClose } from "~/browser/confirmation-guard";
import { rememberFollowing, showFollowing } from "~/browser/following";
import { FAILURE_MESSAGES, KEPT_REQUEST_NAMES, type VisitorActionResult, type VisitorIntent } from "~/modules/contacts/visitor-form-rules";
import { savedListStorage } from "~/modules/saved/saved-list";
import { characterCount } from "~/browser/character-count";
import { COPIED_MS, copyText, toastCopyFailure } from "~/browser/copy-text";
import { announceRefusal, errorsOfAnswer, refuseBeforeSending, toastConfirmation, type ShownErrors } from "~/browser/visitor-answers";
import type { OpenedDialog, PitchDialogControl } from "./dialogs";
import { markInvalid, markValid } from "./field-error";
import { canKeepOffline, forgetSubmission, keepSubmission, keptSubmissions, newSubmissionKey, type Submission } from "./offline-queue";

const BUSY_LABELS: Record<VisitorIntent, string> = { intro: "Submitting...", subscribe: "Subscribing...", signal: "Submitting..." };

type Answer = { kind: "answered"; result: VisitorActionResult } | { kind: "unreachable" };

/**
 * Posts a submission to the page's JSON form endpoint with its idempotency key; one `kept` on the phone says when it
 * was filled in (`X-Acted-At`, decision 53). A server that answered (even with an error) is an answer; only a failed
 * connection is `unreachable`.
 */
async function post(submission: Submission, kept = false): Promise<Answer> {
  let response: Response;
  try {
    response = await fetch(submission.url, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Accept: "application/json",
        "Idempotency-Key": submission.key,
        ...(kept ? { "X-Acted-At": submission.createdAt } : {}),
      },
      body: submission.body,
      credentials: "same-origin",
    });
  } catch {
    return { kind: "unreachable" };
  }
  const result = (await response.json().catch(() => null)) as VisitorActionResult | null;
  if (result && typeof result.ok === "boolean") return { kind: "answered", result };
  return { kind: "answered", result: { intent: submission.intent, ok: false, formError: FAILURE_MESSAGES[submission.intent], fieldErrors: {} } };
}

function clearErrors(form: HTMLFormElement) {
  for (const element of form.querySelectorAll("[data-field-error], [data-form-alert]")) element.remove();
  for (const input of form.querySelectorAll<HTMLElement>("[aria-invalid]")) markValid(input);
  for (const group of form.querySelectorAll("fieldset[aria-describedby]")) group.removeAttribute("aria-describedby");
}

function errorLine(id: string, message: string): HTMLElement {
  const line = document.createElement("p");
  line.id = id;
  line.dataset.fieldError = "";
  line.className = "mt-1 text-sm text-red-600";
  line.textContent = message;
  return line;
}

/** The messages under their fields and the form's message above them, as the server-rendered form shows them. */
function showErrors(form: HTMLFormElement, { fieldErrors, formError }: ShownErrors) {
  clearErrors(form);
  const alert = document.createElement("p");
  alert.setAttribute("role", "alert");
  alert.dataset.formAlert = "";
  alert.className = "rounded-md bg-red-50 px-3 py-2 text-sm font-medium text-red-700";
  alert.textContent = formError;
  const honeypot = form.querySelector('input[name="website"]')?.closest("div[aria-hidden]");
  if (honeypot) honeypot.after(alert);
  else form.prepend(alert);

  for (const [field, message] of Object.entries(fieldErrors)) {
    const inputs = [...form.querySelectorAll<HTMLInputElement>(`[name="${field}"]`)].filter((input) => input.type !== "hidden");
    const first = inputs[0];
    if (!first) continue;
    const group = inputs.length > 1 || first.type === "radio" ? first.closest("fieldset") : null;
    const id = `${group ? (first.id || `${form.id || "form"}-${field}`) : first.id}-error`;
    if (group) {
      group.append(errorLine(id, message));
      group.setAttribute("aria-describedby", id);
    }
    else if (first.type === "checkbox") first.parentElement?.after(errorLine(id, message));
    else first.parentElement?.append(errorLine(id, message));
    for (const input of inputs) markInvalid(input, id);
  }
}

function setBusy(form: HTMLFormElement, intent: VisitorIntent, busy: boolean) {
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  if (!button) return;
  button.dataset.label ??= button.textContent ?? "";
  button.disabled = busy;
  button.setAttribute("aria-disabled", String(busy));
  button.textContent = busy ? BUSY_LABELS[intent] : button.dataset.label;
}

/**
 * After an intro is sent: the forwardable blurb with Copy ('Copied!' for 2 s) and 'Open in email'; one kept offline
 * and sent later says so in its title.
 */
function showBlurb(replaced: Element, blurb: string, subject: string, sentLater: boolean) {
  const template = document.querySelector<HTMLTemplateElement>('template[data-pitch-template="intro-blurb"]');
  if (!template) return;
  const view = template.content.firstElementChild?.cloneNode(true) as HTMLElement | undefined;
  if (!view) return;
  const title = view.querySelector("[data-intro-sent-title]");
  if (title && sentLater) title.textContent = `Your ${KEPT_REQUEST_NAMES.intro} was sent`;
  const text = view.querySelector("textarea");
  if (text) {
    text.value = blurb;
    text.rows = Math.min(10, Math.max(5, blurb.split("\n").length + 1));
    text.addEventListener("focus", () => text.select());
  }
  const mail = [...view.querySelectorAll("a")].find((link) => link.href.startsWith("mailto:"));
  if (mail) mail.href = introMailto(subject, blurb);
  const copy = view.querySelector<HTMLButtonElement>("[data-copy-blurb]");
  const label = copy?.querySelector("[aria-live]");
  let reset: ReturnType<typeof setTimeout> | undefined;
  const showCopied = (copied: boolean) => {
    if (label) label.textContent = copied ? "Copied!" : "Copy";
    copy?.querySelector('[data-copy-icon="copied"]')?.classList.toggle("hidden", !copied);
    copy?.querySelector('[data-copy-icon="copy"]')?.classList.toggle("hidden", copied);
  };
  copy?.addEventListener("click", async () => {
    if (!(await copyText(blurb))) return toastCopyFailure();
    showCopied(true);
    clearTimeout(reset);
    reset = setTimeout(() => showCopied(false), COPIED_MS);
  });
  replaced.replaceWith(view);
  const done = view.querySelector<HTMLElement>("[data-intro-done]");
  if (done) guardConfirmationClose(done);
  if (matchMedia("(pointer: fine)").matches) copy?.focus({ preventScroll: true });
}

/** Shown instead of the form when it was kept on the phone for later. */
function showKept(form: HTMLFormElement, submission: Submission) {
  const notice = document.createElement("div");
  notice.setAttribute("role", "status");
  notice.dataset.keptSubmission = submission.key;
  notice.className = "rounded-xl bg-amber-50 px-4 py-3 text-sm leading-snug text-amber-900 ring-1 ring-amber-200";
  const title = document.createElement("p");
  title.className = "font-semibold";
  title.textContent = "You're offline: nothing is lost.";
  const body = document.createElement("p");
  body.className = "mt-1";
  body.textContent = `Your ${KEPT_REQUEST_NAMES[submission.intent]} is saved on this phone and will be sent when the connection returns.`;
  notice.append(title, body);
  form.replaceWith(notice);
}

/** The project page a submission was made on: `/pitch/{slug}`, from its `/pitch/{slug}/submit` address. */
const pagePathOf = (submission: Submission) => submission.url.split("?")[0]!.replace(/\/submit$/, "");

/**
 * The answer to a submission, whether it was just sent (`dialog` is its dialog) or kept offline and sent later
 * (`dialogs` may open the intro's panel when the visitor is still on its page with no dialog open).
 */
async function settle(submission: Submission, result: VisitorActionResult, form: HTMLFormElement | null, dialog: OpenedDialog | null, dialogs?: PitchDialogControl): Promise<void> {
  if (!result.ok) {
    const refused = errorsOfAnswer(submission.intent, result);
    if (form?.isConnected) showErrors(form, refused);
    announceRefusal(submission.intent, refused, form);
    return;
  }
  const sentLater = dialog === null;
  const pagePath = pagePathOf(submission);
  if (submission.intent === "subscribe" && !result.held) {
    rememberFollowing(savedListStorage(), decodeURIComponent(pagePath.split("/").pop() ?? ""));
    if (pagePath === location.pathname) showFollowing(document);
  }
  const kept = document.querySelector(`[data-kept-submission="${submission.key}"]`);
  const inPlace = form?.isConnected ? form : kept;
  if (submission.intent === "intro" && !result.held) {
    // Kept, then sent after the page was reloaded: the panel opens again on its page, unless another dialog is open
    // (the toast says it was sent; the text is in the visitor's confirmation e-mail).
    const panel = inPlace ?? (pagePath === location.pathname && !dialogs?.isOpen() ? (await dialogs?.open("intro"))?.content.querySelector("form") : null);
    const blurb = result.blurb ?? "";
    if (panel) return showBlurb(panel, blurb, introSubject(blurb, submission.projectTitle, submission.visitorName || null), sentLater);
  }
  toastConfirmation(submission.intent, result, { sentLater });
  if (inPlace) dialog?.close();
}

let flushing = false;
let retrying: ReturnType<typeof setInterval> | undefined;
/** Venue Wi-Fi often comes back without an `online` event: while something is kept, try again this often. */
const RETRY_MS = 15_000;

/**
 * Sends what was kept on the phone, oldest first, each once; stops at the first failed connection. Each one sent
 * says so; an intro's panel opens again with its forwardable text.
 */
export async function sendKeptSubmissions(dialogs: PitchDialogControl): Promise<void> {
  if (flushing || !canKeepOffline()) return;
  flushing = true;
  try {
    const kept = (await keptSubmissions()).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    let left = kept.length;
    for (const submission of kept) {
      const answer = await post(submission, true);
      if (answer.kind === "unreachable") break;
      await forgetSubmission(submission.key);
      left -= 1;
      await settle(submission, answer.result, null, null, dialogs);
    }
    if (left > 0) retrying ??= setInterval(() => void sendKeptSubmissions(dialogs), RETRY_MS);
    else {
      clearInterval(retrying);
      retrying = undefined;
    }
  } catch (error) {
    console.warn("Kept submissions could not be sent", error);
  } finally {
    flushing = false;
  }
}

/**
 * A dialog's form, submitted in place: the shared rules first (the server's messages), then a POST to
 * `/pitch/{slug}/submit` with an idempotency key. With no connection the submission is kept on the phone
 * and sent when the connection returns (where that is possible); otherwise the form says it failed.
 */
export function enhanceForm(dialog: OpenedDialog, projectTitle: string, dialogs: () => PitchDialogControl): void {
  const form = dialog.content.querySelector("form");
  if (!form) return;
  const intent = dialog.name as VisitorIntent;
  let busy = false;

  const counter = form.querySelector<HTMLElement>('[id$="-counter"]');
  const counted = counter ? form.querySelector<HTMLTextAreaElement>(`[aria-describedby~="${counter.id}"]`) : null;
  counted?.addEventListener("input", () => {
    const count = characterCount(counted.value.length, counted.maxLength);
    // The count is text beside a screen-reader-only " characters".
    for (const node of [...counter!.childNodes]) if (node.nodeType === Node.TEXT_NODE) node.remove();
    counter!.prepend(count.text);
    counter!.className = count.className;
  });

  // As on the React page: a message is only shown on the wall with the name, so that choice waits for 'Show my name'.
  const showName = form.querySelector<HTMLInputElement>('input[name="showName"]');
  const showMessage = form.querySelector<HTMLInputElement>('input[name="showMessage"]');
  if (showName && showMessage) showName.addEventListener("change", () => (showMessage.disabled = !showName.checked));

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (busy) return;
    const refused = refuseBeforeSending(intent, form);
    if (refused) return showErrors(form, refused);
    clearErrors(form);
    const body = new URLSearchParams();
    for (const [key, value] of new FormData(form)) if (typeof value === "string") body.append(key, value);
    const url = new URL(`${location.pathname.replace(/\/$/, "")}/submit`, location.href);
    const qr = new URLSearchParams(location.search).get("qr");
    if (qr) url.searchParams.set("qr", qr);
    const submission: Submission = {
      key: newSubmissionKey(),
      intent,
      url: url.pathname + url.search,
      body: body.toString(),
      projectTitle,
      visitorName: String(new FormData(form).get("name") ?? "").trim(),
      createdAt: new Date().toISOString(),
    };

    busy = true;
    setBusy(form, intent, true);
    const answer = await post(submission);
    busy = false;
    setBusy(form, intent, false);
    if (answer.kind === "answered") return settle(submission, answer.result, form, dialog);

    const unreachable = { fieldErrors: {}, formError: FAILURE_MESSAGES[intent] };
    if (!canKeepOffline()) {
      showErrors(form, unreachable);
      announceRefusal(intent, unreachable, form);
      return;
    }
    try {
      await keepSubmission(submission);
      showKept(form, submission);
      retrying ??= setInterval(() => void sendKeptSubmissions(dialogs()), RETRY_MS);
    } catch {
      showErrors(form, unreachable);
    }
  });
}
