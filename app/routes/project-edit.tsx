import { readFormData } from "~/modules/http/form-body.server";
import { data } from "react-router";
import { ProjectForm } from "~/components/founder/project-form";
import { requireSessionUser } from "~/modules/auth/session.server";
import { isDomainError } from "~/modules/errors.server";
import { formToObject, validate } from "~/modules/forms/validation";
import type { FormResult } from "~/modules/http/form-result";
import { getOwnedProject, updateProject } from "~/modules/projects/founder-projects.server";
import { orRedirectToMyProjects } from "~/modules/projects/owner-guard.server";
import { projectFormSchema, readProjectForm } from "~/modules/projects/project-form";
import { createQrCode, deleteQrCode } from "~/modules/qr/qr-codes.server";
import { qrCodeFormSchema } from "~/modules/qr/qr-form";
import { projectUpdateSchema } from "~/modules/updates/project-update-form";
import { postProjectUpdate } from "~/modules/updates/project-updates.server";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/project-edit";

export const meta: Route.MetaFunction = ({ data: loaderData }) => [
  { title: `Edit ${loaderData?.project.title ?? "Project"} · ${PRODUCT_NAME}` },
];

/**
 * The project's Details section (the spec's edit route). Its action also takes the QR codes and Updates sections'
 * writes (`intent=create-qr|delete-qr|post-update`), so every workspace write has one address.
 */
export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const { auth, database, config, flashCookie } = context.services;
  const user = await requireSessionUser(auth, request, url);
  const project = await orRedirectToMyProjects(flashCookie, () => getOwnedProject(database.db, user.id, params.id));
  return {
    publicUrl: config.publicUrl,
    project: {
      id: project.id,
      title: project.title,
      slug: project.slug,
      oneLiner: project.one_liner,
      summary: project.summary ?? "",
      videoUrl: project.video_url ?? "",
      deckUrl: project.deck_url ?? "",
      calendlyUrl: project.calendly_url ?? "",
      status: project.status,
      metrics: project.metrics,
      problemPoints: project.problem_points,
      solutionPoints: project.solution_points,
      tiers: project.tiers.map((tier) => ({
        id: tier.id,
        rangeLabel: tier.range_label,
        rangeMin: Number(tier.range_min),
        rangeMax: tier.range_max === null ? null : Number(tier.range_max),
        perks: tier.perks,
      })),
    },
  };
}

type EditIntent = "save" | "create-qr" | "delete-qr" | "post-update";

const FAILURE_MESSAGES: Record<EditIntent, string> = {
  save: "Failed to save project",
  "create-qr": "Failed to create QR code",
  "delete-qr": "Failed to delete QR code",
  "post-update": "Failed to post update",
};

export async function action({ request, url, params, context }: Route.ActionArgs) {
  const { auth, database } = context.services;
  const user = await requireSessionUser(auth, request, url);
  const form = await readFormData(request);
  const intent = (String(form.get("intent") ?? "save") as EditIntent) || "save";
  const fail = (formError: string, fieldErrors: Record<string, string>, status: number) =>
    data({ intent, ok: false, formError, fieldErrors } satisfies FormResult<EditIntent>, { status });
  try {
    if (intent === "create-qr") {
      const input = validate(qrCodeFormSchema, formToObject(form));
      if (!input.ok) return fail(input.formError, input.fieldErrors, 400);
      const code = await createQrCode(database.db, user.id, params.id, input.data);
      return { intent, ok: true, message: "QR code created successfully", id: code.id } satisfies FormResult<EditIntent>;
    }
    if (intent === "post-update") {
      const input = validate(projectUpdateSchema, formToObject(form));
      if (!input.ok) return fail(input.formError, input.fieldErrors, 400);
      const update = await postProjectUpdate(database.db, user.id, params.id, input.data);
      return { intent, ok: true, message: "Update posted", id: update.id } satisfies FormResult<EditIntent>;
    }
    if (intent === "delete-qr") {
      await deleteQrCode(database.db, user.id, params.id, String(form.get("qrCodeId") ?? ""));
      return { intent, ok: true, message: "QR code deleted" } satisfies FormResult<EditIntent>;
    }
    const input = validate(projectFormSchema, readProjectForm(form));
    if (!input.ok) return fail(input.formError, input.fieldErrors, 400);
    await updateProject(database.db, user.id, params.id, input.data);
    return { intent, ok: true, message: "Project updated successfully" } satisfies FormResult<EditIntent>;
  } catch (error) {
    if (!isDomainError(error)) {
      context.logger.error({ err: error, intent }, "project edit failed");
      return fail(FAILURE_MESSAGES[intent] ?? FAILURE_MESSAGES.save, {}, 500);
    }
    return fail(error.message, error.fieldErrors, error.status);
  }
}

export default function EditProject({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <ProjectForm
      mode="edit"
      project={loaderData.project}
      publicUrl={loaderData.publicUrl}
      actionData={actionData?.intent === "save" ? actionData : undefined}
    />
  );
}
