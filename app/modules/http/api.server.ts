import type { core } from "zod/mini";
import { validate } from "~/modules/forms/validation";
import { DomainError, isDomainError } from "~/modules/errors.server";
import type { Logger } from "~/modules/logging/logger.server";
import { domainErrorJson } from "./domain-errors.server";

/** Deeper than any function's body (`{contact: {name}}`, `{roleTags: [..]}`): more is never one of ours. */
const MAX_JSON_DEPTH = 4;
/** Longer than any text field of a function (a note, 1,000 characters; a URL, 2,048). */
const MAX_JSON_TEXT_LENGTH = 4_000;
export const JSON_TOO_DEEP_MESSAGE = "Request body is nested too deeply";
export const JSON_TEXT_TOO_LONG_MESSAGE = "Text is too long";

/**
 * Reads a JSON request body (the request guard has bounded its size and checked its type) and validates it
 * with the endpoint's schema. Before the schema, in this one place for every function: malformed JSON, nesting
 * past MAX_JSON_DEPTH, text past MAX_JSON_TEXT_LENGTH, and (in `validate`, as the forms do) control characters
 * and lone surrogates are refused. Each is an `invalid_input` error with the message a form would show.
 */
export async function readJsonBody<S extends core.$ZodType>(request: Request, schema: S): Promise<core.output<S>> {
  let body: unknown;
  try {
    body = JSON.parse(await request.text());
  } catch {
    throw new DomainError("invalid_input", "Malformed JSON");
  }
  refuseOversizedJson(body);
  const result = validate(schema, body);
  if (!result.ok) throw new DomainError("invalid_input", result.formError, result.fieldErrors);
  return result.data;
}

/** Walks the parsed value with its own stack: a value nested 20,000 deep is refused, never a stack overflow. */
function refuseOversizedJson(body: unknown): void {
  const pending: Array<{ value: unknown; depth: number; field: string }> = [{ value: body, depth: 0, field: "form" }];
  while (pending.length) {
    const { value, depth, field } = pending.pop()!;
    if (typeof value === "string") {
      if (value.length > MAX_JSON_TEXT_LENGTH) throw new DomainError("invalid_input", JSON_TEXT_TOO_LONG_MESSAGE, { [field]: JSON_TEXT_TOO_LONG_MESSAGE });
    } else if (value !== null && typeof value === "object") {
      if (depth >= MAX_JSON_DEPTH) throw new DomainError("invalid_input", JSON_TOO_DEEP_MESSAGE);
      for (const [key, item] of Object.entries(value)) pending.push({ value: item, depth: depth + 1, field: depth === 0 ? key : field });
    }
  }
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
