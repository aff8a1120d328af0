import { readFormData } from "~/modules/http/form-body.server";
import { ProjectForm } from "~/components/founder/project-form";
import { requireSessionUser } from "~/modules/auth/session.server";
import { callIntent, handleFormAction, intentOf, postedText } from "~/modules/forms/form-action.server";
import { getEditableProject, updateProject } from "~/modules/projects/founder-projects.server";
import { orRedirectToMyProjects } from "~/modules/projects/owner-guard.server";
import { PROJECT_FORM_INTENT, type ProjectFormInput } from "~/modules/projects/project-form";
import { createQrCode, deleteQrCode, renderQrSvg, repointQrCode, setQrCodeArchived, setQrCodeEventEnd } from "~/modules/qr/qr-codes.server";
import { moveQrCodeBack } from "~/modules/qr/qr-code-moves.server";
import {
  createBoothLinkSchema,
  repointBoothLinkSchema,
  revokeBoothLinkSchema,
  type CreateBoothLinkInput,
  type RepointBoothLinkInput,
  type RevokeBoothLinkInput,
} from "~/modules/booth/booth-link-form";
import { boothLinkUrl, createBoothLink, repointBoothLink, revokeBoothLink } from "~/modules/booth/booth-links.server";
import {
  qrCodeActionSchema,
  qrCodeEventEndSchema,
  qrCodeFormSchema,
  repointQrCodeSchema,
  type QrCodeActionInput,
  type QrCodeEventEndInput,
  type QrCodeFormInput,
  type RepointQrCodeInput,
} from "~/modules/qr/qr-form";
import { projectUpdateSchema, sendUpdateNowSchema, type ProjectUpdateInput, type SendUpdateNowInput } from "~/modules/updates/project-update-form";
import { postProjectUpdate } from "~/modules/updates/project-updates.server";
import { sendUpdateNow, sentNowMessage } from "~/modules/updates/send-update-now.server";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/project-edit";

export const meta: Route.MetaFunction = ({ data: loaderData }) => [
  { title: `Edit ${loaderData?.project.title ?? "Project"} · ${PRODUCT_NAME}` },
];

/**
 * The project's Details section (the spec's edit route). Its action also takes the QR codes and Updates sections'
 * writes (`intent=create-qr|delete-qr|archive-qr|restore-qr|repoint-qr|move-qr-back|set-qr-end|post-update|send-update-now`) and the booth links' (`create-booth-link|revoke-booth-link|repoint-booth-link`), so every workspace write has one address.
 */
export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const { auth, database, config, flashCookie } = context.services;
  const user = await requireSessionUser(auth, request, url);
  const project = await orRedirectToMyProjects(flashCookie, () => getEditableProject(database.db, user.id, params.id));
  return {
    projectRole: project.role,
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
      qrCodeCount: project.qrCodeCount,
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

const EDIT_INTENTS = ["save", "create-qr", "delete-qr", "archive-qr", "restore-qr", "repoint-qr", "move-qr-back", "set-qr-end", "post-update", "send-update-now", "create-booth-link", "revoke-booth-link", "repoint-booth-link"] as const;

export async function action({ request, url, params, context }: Route.ActionArgs) {
  const { auth, database, config, events } = context.services;
  const user = await requireSessionUser(auth, request, url);
  const form = await readFormData(request);
  const deps = { db: database.db, events, logger: context.logger };
  return handleFormAction({
    form,
    logger: context.logger,
    intent: intentOf(form, EDIT_INTENTS),
    intents: {
      save: {
        ...PROJECT_FORM_INTENT,
        run: async (input: ProjectFormInput) => {
          await updateProject(database.db, user.id, params.id, input);
          return { message: "Project updated successfully" };
        },
      },
      "create-qr": callIntent(qrCodeFormSchema, "Failed to create QR code", (input: QrCodeFormInput) => createQrCode(database.db, user.id, params.id, input), (_input, code) => ({ message: "QR code created successfully", id: code.id })),
      "delete-qr": callIntent(undefined, "Failed to delete QR code", (_input, posted) => deleteQrCode(database.db, user.id, params.id, postedText(posted, "qrCodeId")), { message: "QR code deleted" }),
      "archive-qr": callIntent(qrCodeActionSchema, "Failed to archive QR code", (input: QrCodeActionInput) => setQrCodeArchived(database.db, user.id, params.id, input.qrCodeId, true), (input) => ({
        message: "QR code archived: it still opens your pitch and counts",
        id: input.qrCodeId,
      })),
      "restore-qr": callIntent(qrCodeActionSchema, "Failed to restore QR code", (input: QrCodeActionInput) => setQrCodeArchived(database.db, user.id, params.id, input.qrCodeId, false), (input) => ({ message: "QR code restored", id: input.qrCodeId })),
      "repoint-qr": callIntent(repointQrCodeSchema, "Failed to re-point QR code", (input: RepointQrCodeInput) => repointQrCode(database.db, user.id, params.id, input), (input, target) => ({ message: `QR code now opens ${target.title}`, id: input.qrCodeId })),
      "move-qr-back": callIntent(qrCodeActionSchema, "Failed to move the QR code back", (input: QrCodeActionInput) => moveQrCodeBack(database.db, user.id, params.id, input.qrCodeId), (input, moved) => ({
        message: `${moved.label} opens this project again`,
        id: input.qrCodeId,
      })),
      "set-qr-end": callIntent(qrCodeEventEndSchema, "Failed to save the event's end date", (input: QrCodeEventEndInput) => setQrCodeEventEnd(database.db, user.id, params.id, input), (input) => ({
        message: input.eventEndsOn ? "Event end date saved" : "Event end date removed",
        id: input.qrCodeId,
      })),
      "post-update": callIntent(projectUpdateSchema, "Failed to post update", (input: ProjectUpdateInput) => postProjectUpdate(database.db, user.id, params.id, input), (_input, update) => ({ message: "Update posted", id: update.id })),
      "send-update-now": {
        schema: sendUpdateNowSchema,
        failureMessage: "Failed to send the update",
        run: async (input: SendUpdateNowInput) => {
          const sent = await sendUpdateNow(database.db, context.services.mailLinks, user.id, params.id, input, config.digest.timeZone);
          if (sent.queued > 0) context.services.mail.wake();
          if (!sent.finished) context.services.digests.wake();
          return { message: sentNowMessage(sent), id: input.updateId };
        },
      },
      "create-booth-link": {
        schema: createBoothLinkSchema,
        failureMessage: "Failed to create booth link",
        run: async (input: CreateBoothLinkInput) => {
          const link = await createBoothLink(database.db, user.id, params.id, input);
          const boothUrl = boothLinkUrl(config.publicUrl, params.id, link.token);
          return { message: "Booth link created", id: link.id, boothUrl, boothQrSvg: await renderQrSvg(boothUrl) };
        },
      },
      "revoke-booth-link": callIntent(revokeBoothLinkSchema, "Failed to revoke booth link", (input: RevokeBoothLinkInput) => revokeBoothLink(deps, user.id, params.id, input.linkId), (input) => ({ message: "Booth link revoked", id: input.linkId })),
      "repoint-booth-link": callIntent(repointBoothLinkSchema, "Failed to change the booth link's code", (input: RepointBoothLinkInput) => repointBoothLink(deps, user.id, params.id, input), (input) => ({
        message: "Booth link now shows this code",
        id: input.linkId,
      })),
    },
  });
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
