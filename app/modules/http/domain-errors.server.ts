import { data, redirect } from "react-router";
import { domainErrorHeaders, isDomainError, type DomainError, type DomainErrorCode } from "~/modules/errors.server";
import { serializeFlash, type FlashCookie } from "~/modules/flash/flash.server";

/** The JSON answer for a DomainError outside forms (forms: `forms/form-action.server.ts`): `{error, fieldErrors?}`. */
export function domainErrorJson(error: DomainError): Response {
  const fieldErrors = Object.keys(error.fieldErrors).length ? { fieldErrors: error.fieldErrors } : {};
  return Response.json({ error: error.message, ...fieldErrors }, { status: error.status, headers: domainErrorHeaders(error) });
}

/** Which DomainErrors a page step answers: these codes (default: every one); the others pass through. */
type Codes = { codes?: readonly DomainErrorCode[] };

/** Thrown to the route's ErrorBoundary: the body (default: the error's message) with a status (default: the error's). */
export type ErrorBoundaryAnswer = Codes & { as?: "error-boundary"; body?: (error: DomainError) => unknown; status?: number };
/** Returned as the route's own data, so the page renders the error itself, with the error's status and headers. */
export type PageAnswer<Page> = Codes & { as: "page"; page: (error: DomainError) => Page };
/** A redirect whose flash shows the error's message as an error toast. */
export type ToastAnswer = Codes & { as: "toast"; to: string; flashCookie: FlashCookie };

/**
 * Runs a route's step (a loader's load, an action's domain call) and answers a DomainError the way the page
 * shows errors: by default the route's error page with the error's message and status. Other errors pass through.
 */
export async function orErrorPage<T, Page>(work: () => T | Promise<T>, answer: PageAnswer<Page>): Promise<T | ReturnType<typeof data<Page>>>;
export async function orErrorPage<T>(work: () => T | Promise<T>, answer?: ErrorBoundaryAnswer | ToastAnswer): Promise<T>;
export async function orErrorPage<T, Page>(work: () => T | Promise<T>, answer: ErrorBoundaryAnswer | ToastAnswer | PageAnswer<Page> = {}) {
  try {
    return await work();
  } catch (error) {
    if (!isDomainError(error) || (answer.codes && !answer.codes.includes(error.code))) throw error;
    if (answer.as === "page") return data(answer.page(error), { status: error.status, headers: domainErrorHeaders(error) });
    if (answer.as === "toast") {
      throw redirect(answer.to, { headers: { "Set-Cookie": await serializeFlash(answer.flashCookie, { toast: { type: "error", message: error.message } }) } });
    }
    throw data(answer.body ? answer.body(error) : error.message, { status: answer.status ?? error.status, headers: domainErrorHeaders(error) });
  }
}
