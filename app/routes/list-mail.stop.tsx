import { MailX } from "lucide-react";
import { data, useNavigation } from "react-router";
import { LinkActionForm, LinkFailure, LinkPageCard } from "~/components/ui/link-page";
import { readFormData } from "~/modules/http/form-body.server";
import { checkSavedListStop, stopSavedListMail } from "~/modules/saved/saved-list-mail.server";
import { LIST_MAIL_LINK_FAILURES } from "~/modules/saved/saved-list-rules";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/list-mail.stop";

export const meta: Route.MetaFunction = () => [{ title: `Stop saved-list e-mails · ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

/** The "not me" link of a saved-list mail (decision 38): opening it asks and changes nothing. */
export async function loader({ url, context }: Route.LoaderArgs) {
  const token = url.searchParams.get("token") ?? "";
  const check = await checkSavedListStop(context.services.database.db, token);
  if (check.status === "valid") return { token, email: check.email, failure: null };
  return data({ token: null, email: null, failure: LIST_MAIL_LINK_FAILURES[check.status] }, { status: 400 });
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormData(request);
  const outcome = await stopSavedListMail(context.services.database.db, String(form.get("token") ?? ""));
  context.logger.info({ status: outcome.status }, "saved-list mail stopped");
  if (outcome.status !== "valid") return data({ stopped: null, failure: LIST_MAIL_LINK_FAILURES[outcome.status] }, { status: 400 });
  return { stopped: outcome.email, failure: null };
}

export default function StopListMail({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const failure = actionData?.failure ?? (actionData ? null : loaderData.failure);

  return (
    <LinkPageCard icon={MailX}>
      {actionData?.stopped ? (
        <>
          <h1 className="mt-4 text-2xl font-bold">Stopped</h1>
          <p className="mt-2 text-slate-600">
            {PRODUCT_NAME} will send no more saved lists, or requests to confirm one, to{" "}
            <strong className="font-semibold break-all text-slate-900">{actionData.stopped}</strong>.
          </p>
        </>
      ) : failure ? (
        <LinkFailure failure={failure} />
      ) : (
        <>
          <h1 className="mt-4 text-2xl font-bold">Stop saved-list e-mails?</h1>
          <p className="mt-2 text-slate-600">
            No more saved lists, or requests to confirm one, to <strong className="font-semibold break-all text-slate-900">{loaderData.email}</strong>.
          </p>
          <LinkActionForm token={loaderData.token ?? ""} busy={busy} label="Stop these e-mails" />
        </>
      )}
    </LinkPageCard>
  );
}
