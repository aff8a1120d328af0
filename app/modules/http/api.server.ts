import type { core } from "zod/mini";
import { validate } from "~/modules/forms/validation";
import { DomainError, isDomainError } from "~/modules/errors.server";
import type { Logger } from "~/modules/logging/logger.server";
import { domainErrorJson } from "./domain-errors.server";

const MAX_JSON_BYTES = 64 * 1024;

/**
 * Reads a JSON request body and validates it with the endpoint's schema. Malformed or oversized JSON and
 * schema failures become `invalid_input` errors carrying the schema's (the spec's) message.
 */
export async function readJsonBody<S extends core.$ZodType>(request: Request, schema: S): Promise<core.output<S>> {
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > MAX_JSON_BYTES) throw new DomainError("invalid_input", "Request body is too large");
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_JSON_BYTES) throw new DomainError("invalid_input", "Request body is too large");
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new DomainError("invalid_input", "Malformed JSON");
  }
  const result = validate(schema, body);
  if (!result.ok) throw new DomainError("invalid_input", result.formError, result.fieldErrors);
  return result.data;
}

/**
 * Runs a JSON endpoint or a resource route (a download, a stream): a Response is answered as it is, other results
 * as JSON; a DomainError answers `{error, fieldErrors?}` with its status; anything else is logged and answered
 * with a generic 500.
 */
export async function respondJson(logger: Logger, work: () => Promise<unknown>): Promise<Response> {
  try {
    const result = await work();
    if (result instanceof Response) return result;
    return Response.json(result ?? { ok: true });
  } catch (error) {
    if (error instanceof Response) throw error;
    if (isDomainError(error)) return domainErrorJson(error);
    logger.error({ err: error }, "api request failed");
    return Response.json({ error: "Something went wrong. Please try again." }, { status: 500 });
  }
}

/** JSON endpoints accept POST only. */
export function methodNotAllowed(): Response {
  return Response.json({ error: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });
}
