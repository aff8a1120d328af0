import { readFormData } from "~/modules/http/form-body.server";
import { MailCheck, MailX } from "lucide-react";
import { useEffect, useState } from "react";
import { data, Form, useNavigation } from "react-router";
import { toast } from "sonner";
import { primaryButtonClass } from "~/components/ui/buttons";
import { FieldError, inputClass, labelClass } from "~/components/ui/form-fields";
import { LinkActionForm, LinkPageCard } from "~/components/ui/link-page";
import { unsubscribeSchema } from "~/modules/contacts/unsubscribe-form";
import { checkUnsubscribeLink, CONFIRMATION_LINK_FAILURES, unsubscribeByToken, type UnsubscribeLinkCheck } from "~/modules/contacts/unsubscribe-link.server";
import { checkUnsubscribeConfirmation, confirmUnsubscribeByAddress, requestUnsubscribeByAddress } from "~/modules/contacts/unsubscribe.server";
import { DomainError } from "~/modules/errors.server";
import { handleFormAction } from "~/modules/forms/form-action.server";
import type { FormResult } from "~/modules/forms/form-result";
import { formToObject, validate } from "~/modules/forms/validation";
import { requestingBrowser } from "~/modules/http/requesting-browser.server";
import { listedWithAnd } from "~/modules/formats/listing";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/unsubscribe";

export const meta: Route.MetaFunction = () => [{ title: `Unsubscribe · ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

type UnsubscribeIntent = "token" | "confirm" | "email";
type UnsubscribeExtra = { projectTitles?: string[]; sentTo?: string };
type UnsubscribeResult = FormResult<UnsubscribeIntent, UnsubscribeExtra>;
/** What the page says about a failure: a heading and a line, in the alert under the field and in the toast. */
type ShownFailure = { title: string; message: string };

const INVALID_EMAIL: ShownFailure = { title: "Invalid email", message: "Please enter a valid email address." };

function shownFailure(failure: Extract<UnsubscribeResult, { ok: false }>): ShownFailure {
  // A refused link names its reason as the form's error and explains it on the token field.
  if (failure.fieldErrors.token) return { title: failure.formError, message: failure.fieldErrors.token };
  if (failure.fieldErrors.confirm) return { title: failure.formError, message: failure.fieldErrors.confirm };
  if (failure.fieldErrors.email) return INVALID_EMAIL;
  return { title: "Error", message: failure.formError };
}

/**
 * The link of an e-mail (`?token=`), or of the confirmation mailed to a typed address (`?confirm=`, decision 37):
 * names what it stops and asks, with one button that posts the token back. Opening a link changes nothing (mail
 * scanners open links); a bad, used or expired link says why, above the form.
 */
export async function loader({ url, context }: Route.LoaderArgs) {
  const confirm = url.searchParams.get("confirm");
  if (confirm !== null) {
    const check = await checkUnsubscribeConfirmation(context.services.database.db, confirm);
    if (check.status === "valid") return { link: null, token: null, confirmation: { token: confirm, email: check.email, projectTitles: check.projectTitles }, confirmationFailure: null };
    return data({ link: null, token: null, confirmation: null, confirmationFailure: CONFIRMATION_LINK_FAILURES[check.status] }, { status: 400 });
  }
  const token = url.searchParams.get("token");
  if (token === null) return { link: null, token: null, confirmation: null, confirmationFailure: null };
  const link = await checkUnsubscribeLink(context.services, token);
  return data({ link, token: link.valid ? token : null, confirmation: null, confirmationFailure: null }, { status: link.valid ? 200 : 400 });
}

/**
 * The link's button (a `token` field) unsubscribes that contact; the confirmation's button (`confirm`) unsubscribes
 * the confirmed address; the e-mail form only mails that address a confirmation link.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormData(request);
  const { database, mailLinks, pageDoor, mail } = context.services;
  const intent: UnsubscribeIntent = typeof form.get("token") === "string" ? "token" : typeof form.get("confirm") === "string" ? "confirm" : "email";
  return handleFormAction<UnsubscribeIntent, UnsubscribeExtra>({
    form,
    logger: context.logger,
    intent,
    intents: {
      token: {
        run: async (_input, posted) => {
          const result = await unsubscribeByToken(context.services, String(posted.get("token")));
          if (!result.done) throw new DomainError("invalid_input", result.title, { token: result.message });
          return { message: "Successfully unsubscribed", ...(result.projectTitle ? { projectTitles: [result.projectTitle] } : {}) };
        },
      },
      confirm: {
        run: async (_input, posted) => {
          const result = await confirmUnsubscribeByAddress(database.db, String(posted.get("confirm")));
          context.logger.info({ status: result.status }, "unsubscribe by confirmed address");
          if (result.status !== "valid") {
            const failure = CONFIRMATION_LINK_FAILURES[result.status];
            throw new DomainError("invalid_input", failure.title, { confirm: failure.message });
          }
          return { message: "Successfully unsubscribed", projectTitles: result.projectTitles };
        },
      },
      email: {
        schema: unsubscribeSchema,
        failureMessage: "There was a problem processing your request. Please try again.",
        run: async ({ email }: { email: string }) => {
          const { mailed } = await requestUnsubscribeByAddress(database.db, mailLinks, requestingBrowser(request, pageDoor, "unsubscribe"), email);
          if (mailed) mail.wake();
          context.logger.info({ mailed }, "unsubscribe asked by address");
          // The same answer whether or not the address was known.
          return { message: CHECK_INBOX.title, sentTo: email };
        },
      },
    },
  });
}

const CHECK_INBOX = { title: "Check your inbox", description: "Nothing changes until you open the link we sent and confirm." };

/** Whom the page's success names: the projects unsubscribed from, else the operator. */
function stoppedMailLine(projectTitles: string[] | undefined): string {
  if (!projectTitles || projectTitles.length === 0) return `You will no longer receive e-mails from ${PRODUCT_NAME}.`;
  return `You will no longer receive e-mails about ${listedWithAnd(projectTitles)}.`;
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const [clientError, setClientError] = useState<ShownFailure | null>(null);
  const link: UnsubscribeLinkCheck | null = actionData ? null : loaderData.link;
  const confirmation = actionData ? null : loaderData.confirmation;
  const linkFailure = actionData ? null : link && !link.valid ? link : loaderData.confirmationFailure;
  const succeeded = !clientError && actionData?.ok ? actionData : null;
  const failure = clientError ?? (actionData && !actionData.ok ? shownFailure(actionData) : null);

  useEffect(() => {
    if (!actionData) return;
    if (actionData.ok && actionData.intent === "email") toast.success(CHECK_INBOX.title, { description: CHECK_INBOX.description });
    else if (actionData.ok) toast.success(actionData.message, { description: stoppedMailLine(actionData.projectTitles) });
    else toast.error(shownFailure(actionData).title, { description: shownFailure(actionData).message });
  }, [actionData]);

  if (succeeded?.intent === "email") {
    return (
      <main className="mx-auto max-w-md px-4 py-16 text-center">
        <MailCheck aria-hidden className="mx-auto size-12 text-brand-600" />
        <h1 className="mt-4 text-2xl font-bold">{CHECK_INBOX.title}</h1>
        <p className="mt-2 text-slate-600">
          If <strong className="font-semibold break-all text-slate-900">{succeeded.sentTo}</strong> gets e-mail from {PRODUCT_NAME}, we&apos;ve sent it a
          link to confirm.
        </p>
        <p className="mt-2 text-slate-600">Nothing changes until you open that link and press Unsubscribe. It works once, for 24 hours.</p>
      </main>
    );
  }

  if (succeeded) {
    return (
      <main className="mx-auto max-w-md px-4 py-16 text-center">
        <MailX aria-hidden className="mx-auto size-12 text-brand-600" />
        <h1 className="mt-4 text-2xl font-bold">You&apos;ve been unsubscribed</h1>
        <p className="mt-2 text-slate-600">{stoppedMailLine(succeeded.projectTitles)}</p>
      </main>
    );
  }

  if (confirmation) {
    return (
      <LinkPageCard icon={MailX}>
        <h1 className="mt-4 text-2xl font-bold">Unsubscribe</h1>
        <p className="mt-2 text-slate-600">
          Stop all e-mails from {PRODUCT_NAME} to <strong className="font-semibold break-all text-slate-900">{confirmation.email}</strong>?
        </p>
        {confirmation.projectTitles.length > 0 ? (
          <p className="mt-2 text-sm text-slate-600">
            It gets e-mail about <strong className="font-semibold text-slate-900">{confirmation.projectTitles.join(", ")}</strong>.
          </p>
        ) : null}
        <LinkActionForm name="confirm" token={confirmation.token} busy={busy} label="Unsubscribe" />
      </LinkPageCard>
    );
  }

  if (link?.valid && loaderData.token) {
    return (
      <LinkPageCard icon={MailX}>
        <h1 className="mt-4 text-2xl font-bold">Unsubscribe</h1>
        <p className="mt-2 text-slate-600">
          {link.projectTitle ? (
            <>
              Stop e-mails about <strong className="font-semibold text-slate-900">{link.projectTitle}</strong> to this address?
            </>
          ) : (
            `Stop e-mails from ${PRODUCT_NAME} to this address?`
          )}
        </p>
        <LinkActionForm token={loaderData.token} busy={busy} label="Unsubscribe" />
      </LinkPageCard>
    );
  }

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    const input = validate(unsubscribeSchema, formToObject(new FormData(event.currentTarget)));
    if (input.ok) return setClientError(null);
    event.preventDefault();
    setClientError(INVALID_EMAIL);
    toast.error(INVALID_EMAIL.title, { description: INVALID_EMAIL.message });
  }

  return (
    <main className="mx-auto max-w-md px-4 py-12">
      <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-2xl font-bold">Unsubscribe</h1>
        {linkFailure ? (
          <div role="alert" className="mt-3 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
            <p className="font-semibold">{linkFailure.title}</p>
            <p className="mt-0.5">{linkFailure.message}</p>
          </div>
        ) : null}
        <p className={`${linkFailure ? "mt-3" : "mt-1"} text-sm text-slate-600`}>
          Enter your e-mail address to stop e-mails from {PRODUCT_NAME}. We&apos;ll send a link to that address to confirm it&apos;s yours.
        </p>
        <Form method="post" noValidate onSubmit={onSubmit} className="mt-5 space-y-4">
          <div>
            <label htmlFor="email" className={labelClass}>
              Email
            </label>
            <input
              id="email"
              name="email"
              type="email"
              autoComplete="email"
              required
              className={inputClass}
              aria-invalid={failure ? true : undefined}
              aria-describedby={failure ? "email-error" : undefined}
            />
            {failure ? (
              <div id="email-error" role="alert" className="mt-2">
                <p className="text-sm font-semibold text-red-700">{failure.title}</p>
                <FieldError id="email-error-text" message={failure.message} />
              </div>
            ) : null}
          </div>
          <button type="submit" disabled={busy} className={`${primaryButtonClass} w-full`}>
            {busy ? "Processing..." : "Unsubscribe"}
          </button>
        </Form>
      </div>
    </main>
  );
}
