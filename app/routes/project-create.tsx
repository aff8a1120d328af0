import { readFormData } from "~/modules/http/form-body.server";
import { data, redirect } from "react-router";
import { ProjectForm } from "~/components/founder/project-form";
import { requireSessionUser } from "~/modules/auth/session.server";
import { isDomainError } from "~/modules/errors.server";
import { serializeFlash } from "~/modules/flash/flash.server";
import { validate } from "~/modules/forms/validation";
import type { FormResult } from "~/modules/http/form-result";
import { createProject } from "~/modules/projects/founder-projects.server";
import { DEFAULT_TIERS, projectFormSchema, readProjectForm } from "~/modules/projects/project-form";
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
  const input = validate(projectFormSchema, readProjectForm(await readFormData(request)));
  if (!input.ok) {
    return data({ intent: "save", ok: false, formError: input.formError, fieldErrors: input.fieldErrors } satisfies FormResult, { status: 400 });
  }
  try {
    const project = await createProject(database.db, user.id, input.data);
    const cookie = await serializeFlash(flashCookie, { toast: { type: "success", message: "Project created successfully" } });
    return redirect(`/project/${project.id}/edit`, { headers: { "Set-Cookie": cookie } });
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return data({ intent: "save", ok: false, formError: error.message, fieldErrors: error.fieldErrors } satisfies FormResult, { status: error.status });
  }
}

export default function CreateProject({ loaderData, actionData }: Route.ComponentProps) {
  return <ProjectForm mode="create" defaultTiers={loaderData.defaultTiers} publicUrl={loaderData.publicUrl} actionData={actionData} />;
}
