import { readFormData } from "~/modules/http/form-body.server";
import { HeldForReviewView } from "~/components/founder/leads/held-for-review-view";
import { requireSessionUser } from "~/modules/auth/session.server";
import { callIntent, handleFormAction, intentOf } from "~/modules/forms/form-action.server";
import { heldDiscardLikeSchema, heldReviewSchema, type HeldDiscardLikeInput, type HeldReviewInput, type HeldReviewIntent } from "~/modules/held/held-forms";
import { discardHeldLike, discardHeldSubmission, listHeldSubmissions } from "~/modules/held/held-submissions.server";
import { orRedirectToMyProjects } from "~/modules/projects/owner-guard.server";
import { acceptHeldSubmission } from "~/modules/visitor-forms/pipeline/held-review.server";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/project-leads-held";
import { plural } from "~/modules/formats/counts";

export const meta: Route.MetaFunction = ({ data: loaderData }) => [{ title: `Held for review: ${loaderData?.project.title ?? "Project"} · ${PRODUCT_NAME}` }];

export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const { auth, database, flashCookie } = context.services;
  const user = await requireSessionUser(auth, request, url);
  const page = Number(url.searchParams.get("page") ?? "1");
  const like = url.searchParams.get("like");
  const list = await orRedirectToMyProjects(flashCookie, () => listHeldSubmissions(database.db, user.id, params.id, { page, like }));
  return { ...list, projectRole: list.project.role, now: new Date().toISOString() };
}

const REVIEW_INTENTS = ["accept", "discard", "discard-like"] as const;

/**
 * POST intent=accept|discard with heldId, or intent=discard-like with reason and hour: only the project's owner may
 * (the domain functions check it).
 */
export async function action({ request, url, params, context }: Route.ActionArgs) {
  const { auth, database } = context.services;
  const user = await requireSessionUser(auth, request, url);
  const form = await readFormData(request);
  return handleFormAction<HeldReviewIntent>({
    form,
    logger: context.logger,
    intent: intentOf(form, REVIEW_INTENTS),
    intents: {
      accept: callIntent(heldReviewSchema, "Failed to accept the submission", (input: HeldReviewInput) => acceptHeldSubmission(context.services, user.id, params.id, input.heldId), (_input, accepted) => ({
        message: `Accepted: ${accepted.name} is now in your leads`,
      })),
      discard: callIntent(heldReviewSchema, "Failed to discard the submission", (input: HeldReviewInput) => discardHeldSubmission(database.db, user.id, params.id, input.heldId), { message: "Discarded" }),
      "discard-like": callIntent(heldDiscardLikeSchema, "Failed to discard the submissions", (input: HeldDiscardLikeInput) => discardHeldLike(database.db, user.id, params.id, input), (_input, count) => ({
        message: `Discarded ${plural(count, "form")}`,
      })),
    },
  });
}

export default function ProjectLeadsHeld({ loaderData, actionData }: Route.ComponentProps) {
  return <HeldForReviewView {...loaderData} actionData={actionData} />;
}
