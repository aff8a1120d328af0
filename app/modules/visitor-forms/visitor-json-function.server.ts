import type { RouterContextProvider } from "react-router";
import { getSessionUser } from "~/modules/auth/session.server";
import type { VisitorIntent } from "~/modules/contacts/visitor-form-rules";
import { clientIpOf } from "~/modules/http/client-ip.server";
import { handleVisitorSubmission, type VisitorOutcome } from "./visitor-submission.server";

/** A visitor form as the JSON functions (SPEC.md section 7) receive it, already unpacked from the body. */
export type VisitorJsonSubmission = { intent: VisitorIntent; projectId: string; values: Record<string, unknown>; honeypot: string | undefined };

/** Runs a JSON function's visitor form through the same handler as the page's forms, as the request's visitor. */
export async function submitVisitorJson(context: Readonly<RouterContextProvider>, request: Request, submission: VisitorJsonSubmission): Promise<VisitorOutcome> {
  const viewer = await getSessionUser(context.services.auth, request);
  return handleVisitorSubmission(context.services, {
    intent: submission.intent,
    projectId: submission.projectId,
    values: submission.values,
    clientIp: clientIpOf(request),
    honeypot: submission.honeypot ?? "",
    visitor: { userId: viewer?.id ?? null },
    cookieHeader: request.headers.get("cookie"),
    userAgent: request.headers.get("user-agent"),
  });
}
