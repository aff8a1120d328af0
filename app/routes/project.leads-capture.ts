import { getSessionUser } from "~/modules/auth/session.server";
import { runFormAction } from "~/modules/forms/form-action.server";
import { readFormData } from "~/modules/http/form-body.server";
import { captureSchema, SIGNED_OUT_CAPTURE_MESSAGE, type CaptureInput, type CaptureResult } from "~/modules/leads/capture/capture-form";
import { captureLead } from "~/modules/leads/capture/lead-captures.server";
import type { Route } from "./+types/project.leads-capture";

/**
 * POST /project/{id}/leads/capture: 'Add a person' from the booth or the inbox (decision 62), sent by the sheet's
 * queue (a form body with the capture's UUID as `key`). Answers JSON: the capture's result, or why it was refused.
 * Signed out: 401, and the device keeps the person for later.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const { auth, database } = context.services;
  const user = await getSessionUser(auth, request);
  if (!user) return Response.json({ ok: false, formError: SIGNED_OUT_CAPTURE_MESSAGE, fieldErrors: {} }, { status: 401 });
  const form = await readFormData(request);
  const outcome = await runFormAction<"capture", Omit<CaptureResult, "message">>({
    form,
    logger: context.logger,
    intent: "capture",
    intents: {
      capture: {
        schema: captureSchema,
        failureMessage: "Failed to add the person",
        run: (input: CaptureInput) => captureLead(database.db, user.id, params.id, input),
      },
    },
  });
  if (outcome.kind === "response") return outcome.response;
  return Response.json(outcome.result, { status: outcome.status, headers: { "Cache-Control": "no-store", ...outcome.headers } });
}

export function loader() {
  return new Response("Not found", { status: 404 });
}
