import { redirect } from "react-router";
import { LeadReplyView } from "~/components/founder/leads/lead-reply-view";
import { requireSessionUser } from "~/modules/auth/session.server";
import { serializeFlash } from "~/modules/flash/flash.server";
import { handleFormAction } from "~/modules/forms/form-action.server";
import { formToObject } from "~/modules/forms/validation";
import { orErrorPage } from "~/modules/http/domain-errors.server";
import { readFormData } from "~/modules/http/form-body.server";
import { openReplyComposer, sendLeadReply } from "~/modules/leads/replies/lead-replies.server";
import { leadReplySchema, type LeadReplyInput } from "~/modules/leads/replies/reply-form";
import { operatorBannerFor } from "~/modules/operator/operator-banner.server";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/project-lead-reply";

export const meta: Route.MetaFunction = ({ data: loaderData }) => [{ title: `Reply to ${loaderData?.composer.lead.name ?? "a lead"} · ${PRODUCT_NAME}` }];

export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const { auth, database, mailLinks, flashCookie } = context.services;
  const user = await requireSessionUser(auth, request, url);
  const toLead = `/project/${encodeURIComponent(params.id)}/leads?lead=${encodeURIComponent(params.leadId)}`;
  // A lead that is not one of this founder's (another project, another founder) is a 404: nothing of it is shown.
  // A person met without an e-mail (decision 92): back to their card, where the e-mail is added.
  const composer = await orErrorPage(
    () => orErrorPage(() => openReplyComposer(database.db, mailLinks, user, params.id, params.leadId), { codes: ["conflict"], as: "toast", to: toLead, flashCookie }),
    { codes: ["not_found", "forbidden"] },
  );
  return { composer, projectRole: composer.project.role, founderEmail: user.email, timeZoneSet: user.timeZoneSet, now: new Date().toISOString(), setupBanner: operatorBannerFor(context.services, request, url, composer.project.role, ["mail"]) };
}

/**
 * POST: sends the reply through the outbox (decision 57) and goes back to the lead in the inbox with a toast. Bad
 * input answers its messages and sends nothing; another founder's lead answers 404.
 */
export async function action({ request, url, params, context }: Route.ActionArgs) {
  const { auth, database, mailLinks, mail, flashCookie } = context.services;
  const user = await requireSessionUser(auth, request, url);
  const form = await readFormData(request);
  return handleFormAction<"send">({
    form,
    logger: context.logger,
    intent: "send",
    intents: {
      send: {
        schema: leadReplySchema,
        failureMessage: "Failed to send the reply",
        echo: (posted) => formToObject(posted),
        run: async (input: LeadReplyInput) => {
          const sent = await sendLeadReply(database.db, mailLinks, user, params.id, params.leadId, input);
          mail.wake();
          const message = sent.status === "meeting" ? "Reply and invitation sent" : "Reply sent";
          return redirect(`/project/${encodeURIComponent(params.id)}/leads?lead=${encodeURIComponent(params.leadId)}`, {
            headers: { "Set-Cookie": await serializeFlash(flashCookie, { toast: { type: "success", message } }) },
          });
        },
      },
    },
  });
}

export default function ProjectLeadReply({ loaderData, actionData }: Route.ComponentProps) {
  return <LeadReplyView {...loaderData} actionData={actionData} />;
}
