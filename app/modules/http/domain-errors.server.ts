import { data } from "react-router";
import { domainErrorHeaders, isDomainError, type DomainError } from "~/modules/errors.server";

/** The JSON answer for a DomainError outside forms (forms: `forms/form-action.server.ts`): `{error, fieldErrors?}`. */
export function domainErrorJson(error: DomainError): Response {
  const fieldErrors = Object.keys(error.fieldErrors).length ? { fieldErrors: error.fieldErrors } : {};
  return Response.json({ error: error.message, ...fieldErrors }, { status: error.status, headers: domainErrorHeaders(error) });
}

/** Runs a page loader's step: a DomainError becomes the route's error page with its message and status. */
export async function orErrorPage<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isDomainError(error)) throw data(error.message, { status: error.status });
    throw error;
  }
}
