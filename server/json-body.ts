import type { Request, Response } from "express";
import type { core } from "zod/mini";
import { validate } from "~/modules/forms/validation";
import { guardedBody } from "./request-guard";

/**
 * The JSON body the request guard read (at most its path's limit, of its type), checked by `schema`; or null once
 * a 400 has been sent for malformed JSON or a body the schema refuses. For the endpoints Express answers itself.
 */
export function readJsonBody<S extends core.$ZodType>(req: Request, res: Response, schema: S): core.output<S> | null {
  let body: unknown;
  try {
    body = JSON.parse(guardedBody(req)?.toString("utf8") ?? "");
  } catch {
    res.status(400).json({ error: "Malformed JSON" });
    return null;
  }
  const input = validate(schema, body);
  if (input.ok) return input.data;
  res.status(400).json({ error: input.formError, fieldErrors: input.fieldErrors });
  return null;
}
