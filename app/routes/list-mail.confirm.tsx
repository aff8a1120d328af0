import { MailCheck } from "lucide-react";
import { data, useNavigation } from "react-router";
import { LinkActionForm, LinkFailure, LinkPageCard } from "~/components/ui/link-page";
import { readFormData } from "~/modules/http/form-body.server";
import { checkSavedListConfirmation, confirmSavedListMail } from "~/modules/saved/saved-list-mail.server";
import { LIST_MAIL_LINK_FAILURES } from "~/modules/saved/saved-list-rules";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/list-mail.confirm";
import { pluralWord } from "~/modules/formats/counts";

export const meta: Route.MetaFunction = () => [{ title: `Confirm your address · ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

/** The link of a saved-list confirmation (decision 38): opening it asks and sends nothing (mail scanners open links). */
export async function loader({ url, context }: Route.LoaderArgs) {
  const token = url.searchParams.get("token") ?? "";
  const check = await checkSavedListConfirmation(context.services.database.db, token);
  if (check.status === "valid") return { token, email: check.email, pitchCount: check.pitchCount, failure: null };
  return data({ token: null, email: null, pitchCount: 0, failure: LIST_MAIL_LINK_FAILURES[check.status] }, { status: 400 });
}

/** The button: sends the list once, and remembers in this browser that the address is its own. */
export async function action({ request, context }: Route.ActionArgs) {
  const { database, mailLinks, mail, listMailCookie, logger } = context.services;
  const form = await readFormData(request);
  const outcome = await confirmSavedListMail(database.db, mailLinks, String(form.get("token") ?? ""));
  logger.info({ status: outcome.status }, "saved list confirmed");
  if (outcome.status !== "valid") return data({ sent: null, failure: LIST_MAIL_LINK_FAILURES[outcome.status] }, { status: 400 });
  mail.wake();
  return data({ sent: { email: outcome.email, count: outcome.sent }, failure: null }, { headers: { "Set-Cookie": listMailCookie.serialize(outcome.email) } });
}

export default function ConfirmListMail({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const failure = actionData?.failure ?? (actionData ? null : loaderData.failure);
  const sent = actionData?.sent;

  return (
    <LinkPageCard icon={MailCheck}>
      {sent ? (
        <>
          <h1 className="mt-4 text-2xl font-bold">{sent.count > 0 ? "Your list is on its way" : "Nothing to send"}</h1>
          <p className="mt-2 text-slate-600">
            {sent.count > 0 ? (
              <>
                {`${sent.count} ${pluralWord(sent.count, "pitch goes", "pitches go")}`} to <strong className="font-semibold break-all text-slate-900">{sent.email}</strong>{" "}
                in a minute. From this browser, later lists go straight out.
              </>
            ) : (
              "None of these pitches is published any more."
            )}
          </p>
        </>
      ) : failure ? (
        <>
          <LinkFailure failure={failure} />
          <a href="/saved" className="mt-6 inline-block font-semibold text-brand-700 underline">
            Open your saved pitches
          </a>
        </>
      ) : (
        <>
          <h1 className="mt-4 text-2xl font-bold">Send your saved pitches?</h1>
          <p className="mt-2 text-slate-600">
            {`${loaderData.pitchCount} saved ${pluralWord(loaderData.pitchCount, "pitch", "pitches")}`} to{" "}
            <strong className="font-semibold break-all text-slate-900">{loaderData.email}</strong>.
          </p>
          <LinkActionForm token={loaderData.token ?? ""} busy={busy} label="Confirm and send my list" busyLabel="Sending..." />
        </>
      )}
    </LinkPageCard>
  );
}
