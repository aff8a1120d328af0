import { readFormData } from "~/modules/http/form-body.server";
import { MailX } from "lucide-react";
import { useEffect, useState } from "react";
import { data, Form, useNavigation } from "react-router";
import { toast } from "sonner";
import { primaryButtonClass } from "~/components/ui/buttons";
import { FieldError, inputClass, labelClass } from "~/components/ui/form-fields";
import { unsubscribeSchema } from "~/modules/contacts/unsubscribe-form";
import { checkUnsubscribeLink, unsubscribeByToken, type UnsubscribeLinkCheck } from "~/modules/contacts/unsubscribe-link.server";
import { unsubscribeEmail } from "~/modules/contacts/unsubscribe.server";
import { DomainError } from "~/modules/errors.server";
import { handleFormAction } from "~/modules/forms/form-action.server";
import type { FormResult } from "~/modules/forms/form-result";
import { formToObject, validate } from "~/modules/forms/validation";
import { clientIpOf } from "~/modules/http/client-ip.server";
import { consumeRateLimit, UNSUBSCRIBE_LIMIT } from "~/modules/rate-limit/rate-limit.server";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/unsubscribe";

export const meta: Route.MetaFunction = () => [{ title: `Unsubscribe · ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

type UnsubscribeIntent = "token" | "email";
type UnsubscribeResult = FormResult<UnsubscribeIntent, { projectTitle?: string }>;
/** What the page says about a failure: a heading and a line, in the alert under the field and in the toast. */
type ShownFailure = { title: string; message: string };

const INVALID_EMAIL: ShownFailure = { title: "Invalid email", message: "Please enter a valid email address." };

function shownFailure(failure: Extract<UnsubscribeResult, { ok: false }>): ShownFailure {
  // A refused link names its reason as the form's error and explains it on the token field.
  if (failure.fieldErrors.token) return { title: failure.formError, message: failure.fieldErrors.token };
  if (failure.fieldErrors.email) return INVALID_EMAIL;
  return { title: "Error", message: failure.formError };
}

/**
 * The link of an e-mail (`?token=`): names the project and asks, with one button that posts the token back.
 * Opening the link changes nothing (mail scanners open links); a bad or expired link says why.
 */
export async function loader({ url, context }: Route.LoaderArgs) {
  const token = url.searchParams.get("token");
  if (token === null) return { link: null, token: null };
  const link = await checkUnsubscribeLink(context.services, token);
  return data({ link, token: link.valid ? token : null }, { status: link.valid ? 200 : 400 });
}

/** The link's button (a `token` field) unsubscribes that contact; otherwise the e-mail form (SPEC.md section 5). */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormData(request);
  return handleFormAction<UnsubscribeIntent, { projectTitle?: string }>({
    form,
    logger: context.logger,
    intent: typeof form.get("token") === "string" ? "token" : "email",
    intents: {
      token: {
        run: async (_input, posted) => {
          const result = await unsubscribeByToken(context.services, String(posted.get("token")));
          if (!result.done) throw new DomainError("invalid_input", result.title, { token: result.message });
          return { message: "Successfully unsubscribed", ...(result.projectTitle ? { projectTitle: result.projectTitle } : {}) };
        },
      },
      email: {
        schema: unsubscribeSchema,
        failureMessage: "There was a problem processing your request. Please try again.",
        run: async ({ email }: { email: string }) => {
          await consumeRateLimit(context.services.database.db, `unsubscribe:${clientIpOf(request)}`, UNSUBSCRIBE_LIMIT);
          const updated = await unsubscribeEmail(context.services.database.db, email);
          context.logger.info({ updated }, "unsubscribe by address");
          // The same answer whether or not the address was known.
          return { message: "Successfully unsubscribed" };
        },
      },
    },
  });
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const [clientError, setClientError] = useState<ShownFailure | null>(null);
  const link: UnsubscribeLinkCheck | null = actionData ? null : loaderData.link;
  const done = !clientError && actionData?.ok ? actionData : null;
  const failure = clientError ?? (actionData && !actionData.ok ? shownFailure(actionData) : null);

  useEffect(() => {
    if (!actionData) return;
    if (actionData.ok) toast.success(actionData.message, { description: "You will no longer receive emails from the product." });
    else toast.error(shownFailure(actionData).title, { description: shownFailure(actionData).message });
  }, [actionData]);

  if (done) {
    return (
      <main className="mx-auto max-w-md px-4 py-16 text-center">
        <MailX aria-hidden className="mx-auto size-12 text-brand-600" />
        <h1 className="mt-4 text-2xl font-bold">You&apos;ve been unsubscribed</h1>
        <p className="mt-2 text-slate-600">
          {done.projectTitle ? `You will no longer receive emails about ${done.projectTitle}.` : "You will no longer receive emails from the product."}
        </p>
      </main>
    );
  }

  if (link?.valid && loaderData.token) {
    return (
      <main className="mx-auto max-w-md px-4 py-12">
        <div className="rounded-2xl border border-slate-200 bg-white p-6 text-center shadow-sm">
          <MailX aria-hidden className="mx-auto size-12 text-brand-600" />
          <h1 className="mt-4 text-2xl font-bold">Unsubscribe</h1>
          <p className="mt-2 text-slate-600">
            {link.projectTitle ? (
              <>
                Stop e-mails about <strong className="font-semibold text-slate-900">{link.projectTitle}</strong> to this address?
              </>
            ) : (
              "Stop these e-mails to this address?"
            )}
          </p>
          <Form method="post" className="mt-6">
            <input type="hidden" name="token" value={loaderData.token} />
            <button type="submit" disabled={busy} className={`${primaryButtonClass} w-full`}>
              {busy ? "Processing..." : "Unsubscribe"}
            </button>
          </Form>
        </div>
      </main>
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
        {link && !link.valid ? (
          <div role="alert" className="mt-3 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
            <p className="font-semibold">{link.title}</p>
            <p className="mt-0.5">{link.message}</p>
          </div>
        ) : null}
        <p className={`${link && !link.valid ? "mt-3" : "mt-1"} text-sm text-slate-600`}>Enter your e-mail address to stop receiving project updates.</p>
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
