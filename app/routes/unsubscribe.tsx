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
import { isDomainError } from "~/modules/errors.server";
import { formToObject, validate } from "~/modules/forms/validation";
import { clientIpOf } from "~/modules/http/client-ip.server";
import { consumeRateLimit, UNSUBSCRIBE_LIMIT } from "~/modules/rate-limit/rate-limit.server";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/unsubscribe";

export const meta: Route.MetaFunction = () => [{ title: `Unsubscribe · ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

type Result = { done: true; projectTitle?: string } | { done: false; title: string; message: string };

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
  const token = form.get("token");
  if (typeof token === "string") {
    const result = await unsubscribeByToken(context.services, token);
    return data<Result>(result, { status: result.done ? 200 : 400 });
  }
  const input = validate(unsubscribeSchema, formToObject(form));
  if (!input.ok) return data<Result>({ done: false, title: "Invalid email", message: "Please enter a valid email address." }, { status: 400 });
  try {
    await consumeRateLimit(context.services.database.db, `unsubscribe:${clientIpOf(request)}`, UNSUBSCRIBE_LIMIT);
    const updated = await unsubscribeEmail(context.services.database.db, input.data.email);
    context.logger.info({ updated }, "unsubscribe by address");
    // The same answer whether or not the address was known.
    return data<Result>({ done: true });
  } catch (error) {
    if (isDomainError(error)) return data<Result>({ done: false, title: "Error", message: error.message }, { status: error.status });
    context.logger.error({ err: error }, "unsubscribe failed");
    return data<Result>(
      { done: false, title: "Error", message: "There was a problem processing your request. Please try again." },
      { status: 500 },
    );
  }
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const [clientError, setClientError] = useState<Result | null>(null);
  const link: UnsubscribeLinkCheck | null = actionData ? null : loaderData.link;
  const result = clientError ?? actionData ?? null;

  useEffect(() => {
    if (!actionData) return;
    if (actionData.done) toast.success("Successfully unsubscribed", { description: "You will no longer receive emails from the product." });
    else toast.error(actionData.title, { description: actionData.message });
  }, [actionData]);

  if (result?.done) {
    return (
      <main className="mx-auto max-w-md px-4 py-16 text-center">
        <MailX aria-hidden className="mx-auto size-12 text-brand-600" />
        <h1 className="mt-4 text-2xl font-bold">You&apos;ve been unsubscribed</h1>
        <p className="mt-2 text-slate-600">
          {result.projectTitle ? `You will no longer receive emails about ${result.projectTitle}.` : "You will no longer receive emails from the product."}
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
    setClientError({ done: false, title: "Invalid email", message: "Please enter a valid email address." });
    toast.error("Invalid email", { description: "Please enter a valid email address." });
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
              aria-invalid={result ? true : undefined}
              aria-describedby={result ? "email-error" : undefined}
            />
            {result && !result.done ? (
              <div id="email-error" role="alert" className="mt-2">
                <p className="text-sm font-semibold text-red-700">{result.title}</p>
                <FieldError id="email-error-text" message={result.message} />
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
