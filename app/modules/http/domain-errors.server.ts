import { data } from "react-router";
import { isDomainError, type DomainError } from "~/modules/errors.server";

/**
 * How a DomainError is answered outside forms (forms: `forms/form-action.server.ts`): its status, and
 * Retry-After when it is a rate limit.
 */
export function domainErrorHeaders(error: DomainError): HeadersInit | undefined {
  return error.retryAfterSeconds === undefined ? undefined : { "Retry-After": String(error.retryAfterSeconds) };
}

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
