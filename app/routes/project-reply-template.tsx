import { ReplyTemplateView } from "~/components/founder/leads/reply-template-view";
import { requireSessionUser } from "~/modules/auth/session.server";
import { callIntent, handleFormAction } from "~/modules/forms/form-action.server";
import { formToObject } from "~/modules/forms/validation";
import { readFormData } from "~/modules/http/form-body.server";
import { loadReplyTemplate, saveReplyTemplate } from "~/modules/leads/replies/lead-replies.server";
import { replyTemplateSchema, type ReplyTemplateInput } from "~/modules/leads/replies/reply-form";
import { orRedirectToMyProjects } from "~/modules/projects/owner-guard.server";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/project-reply-template";

export const meta: Route.MetaFunction = ({ data: loaderData }) => [{ title: `Follow-up template: ${loaderData?.project.title ?? "Project"} · ${PRODUCT_NAME}` }];

export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const { auth, database, flashCookie, mailLinks } = context.services;
  const user = await requireSessionUser(auth, request, url);
  return orRedirectToMyProjects(flashCookie, () => loadReplyTemplate(database.db, mailLinks, user.id, params.id));
}

/** POST: the project's follow-up template; an unknown placeholder or an over-long text is refused and nothing changes. */
export async function action({ request, url, params, context }: Route.ActionArgs) {
  const { auth, database } = context.services;
  const user = await requireSessionUser(auth, request, url);
  const form = await readFormData(request);
  return handleFormAction<"save">({
    form,
    logger: context.logger,
    intent: "save",
    intents: {
      save: {
        ...callIntent(replyTemplateSchema, "Failed to save the template", (input: ReplyTemplateInput) => saveReplyTemplate(database.db, user.id, params.id, input), { message: "Template saved" }),
        echo: (posted) => formToObject(posted),
      },
    },
  });
}

export default function ProjectReplyTemplate({ loaderData, actionData }: Route.ComponentProps) {
  return <ReplyTemplateView {...loaderData} actionData={actionData} />;
}
