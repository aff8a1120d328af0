import { readFormData } from "~/modules/http/form-body.server";
import { redirect } from "react-router";
import { ProjectForm } from "~/components/founder/project-form";
import { requireSessionUser } from "~/modules/auth/session.server";
import { serializeFlash } from "~/modules/flash/flash.server";
import { handleFormAction } from "~/modules/forms/form-action.server";
import { createProject } from "~/modules/projects/founder-projects.server";
import { DEFAULT_TIERS, PROJECT_FORM_INTENT, type ProjectFormInput } from "~/modules/projects/project-form";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/project-create";

export const meta: Route.MetaFunction = () => [{ title: `Create Project · ${PRODUCT_NAME}` }];

export async function loader({ request, url, context }: Route.LoaderArgs) {
  await requireSessionUser(context.services.auth, request, url);
  return { defaultTiers: DEFAULT_TIERS, publicUrl: context.services.config.publicUrl };
}

export async function action({ request, url, context }: Route.ActionArgs) {
  const { auth, database, flashCookie } = context.services;
  const user = await requireSessionUser(auth, request, url);
  return handleFormAction({
    form: await readFormData(request),
    logger: context.logger,
    intent: "save",
    intents: {
      save: {
        ...PROJECT_FORM_INTENT,
        run: async (input: ProjectFormInput) => {
          const project = await createProject(database.db, user.id, input);
          const cookie = await serializeFlash(flashCookie, { toast: { type: "success", message: "Project created successfully" } });
          return redirect(`/project/${project.id}/edit`, { headers: { "Set-Cookie": cookie } });
        },
      },
    },
  });
}

export default function CreateProject({ loaderData, actionData }: Route.ComponentProps) {
  return <ProjectForm mode="create" defaultTiers={loaderData.defaultTiers} publicUrl={loaderData.publicUrl} actionData={actionData} />;
}
