import { MailCheck } from "lucide-react";
import { data, useNavigation } from "react-router";
import { LinkActionForm, LinkFailure, LinkPageCard } from "~/components/ui/link-page";
import { checkSubscriptionConfirmation, confirmSubscription, type SubscriptionConfirmationCheck } from "~/modules/contacts/subscription-confirmation.server";
import { readFormData } from "~/modules/http/form-body.server";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/follow.confirm";

export const meta: Route.MetaFunction = () => [{ title: `Confirm you follow · ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

const FAILURES = {
  unknown: { title: "Invalid link", message: "This link is not valid: it may have been cut off or changed. Nothing was changed." },
  expired: { title: "Expired link", message: "This link has expired. Nothing was changed: you get no updates. Follow the project from its pitch page if you want them." },
  used: { title: "Link already used", message: "This link has already been used: you follow this project. Nothing more was changed." },
} as const;

function failureOf(check: Exclude<SubscriptionConfirmationCheck, { status: "valid" }>) {
  if (check.status === "stopped") {
    return { title: "You stopped these e-mails", message: `This address has stopped e-mail from ${check.projectTitle} since. Nothing was changed. Follow it again from its pitch page if you want its updates.` };
  }
  return FAILURES[check.status];
}

/** The link mailed to an address the project's team subscribed (decision 79): opening it asks and changes nothing. */
export async function loader({ url, context }: Route.LoaderArgs) {
  const token = url.searchParams.get("token") ?? "";
  const check = await checkSubscriptionConfirmation(context.services.database.db, token);
  if (check.status === "valid") return { token, email: check.email, projectTitle: check.projectTitle, failure: null };
  return data({ token: null, email: null, projectTitle: null, failure: failureOf(check) }, { status: 400 });
}

/** The button: confirms the subscription once. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormData(request);
  const outcome = await confirmSubscription(context.services.database.db, String(form.get("token") ?? ""));
  context.services.logger.info({ status: outcome.status }, "subscription confirmed");
  if (outcome.status !== "valid") return data({ followed: null, failure: failureOf(outcome) }, { status: 400 });
  return { followed: { projectTitle: outcome.projectTitle, email: outcome.email }, failure: null };
}

export default function ConfirmFollow({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const failure = actionData?.failure ?? (actionData ? null : loaderData.failure);
  const followed = actionData?.followed;

  return (
    <LinkPageCard icon={MailCheck}>
      {followed ? (
        <>
          <h1 className="mt-4 text-2xl font-bold">You follow {followed.projectTitle}</h1>
          <p className="mt-2 text-slate-600">
            Their updates go to <strong className="font-semibold break-all text-slate-900">{followed.email}</strong>. Every e-mail has a one-click unsubscribe link.
          </p>
        </>
      ) : failure ? (
        <LinkFailure failure={failure} />
      ) : (
        <>
          <h1 className="mt-4 text-2xl font-bold">Follow {loaderData.projectTitle}?</h1>
          <p className="mt-2 text-slate-600">
            Their team added <strong className="font-semibold break-all text-slate-900">{loaderData.email}</strong> to the people who get their updates. Nothing is sent until
            you confirm.
          </p>
          <LinkActionForm token={loaderData.token ?? ""} busy={busy} label="Confirm and follow" busyLabel="Confirming..." />
        </>
      )}
    </LinkPageCard>
  );
}
