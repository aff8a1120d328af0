import { Form, Link, useNavigation } from "react-router";
import { AuthCard, AuthNotice } from "~/components/auth/auth-card";
import { primaryButtonClass, SubmitButton } from "~/components/ui/buttons";
import { FormAlert } from "~/components/ui/form-fields";
import { CONFIRM_LINK_INVALID_MESSAGE, confirmEmailSchema, resendConfirmationSchema, type ConfirmEmailInput } from "~/modules/auth/email-confirmation-form";
import { confirmEmail, isConfirmationTokenShape, resendEmailConfirmation } from "~/modules/auth/email-confirmation.server";
import { getSessionUser, requireSessionUser } from "~/modules/auth/session.server";
import { handleFormAction } from "~/modules/forms/form-action.server";
import { readFormData } from "~/modules/http/form-body.server";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/auth.confirm-email";

export const meta: Route.MetaFunction = () => [{ title: `Confirm your e-mail address · ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

/**
 * The link mailed at sign-up (decision 83). Opening it changes nothing (mail scanners open links): the button
 * confirms. Signed in and still unconfirmed, the page also offers a new link.
 */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  const token = url.searchParams.get("token");
  const user = await getSessionUser(context.services.auth, request);
  return { token: isConfirmationTokenShape(token) ? token : null, tokenGiven: token !== null, signedIn: user !== null, emailConfirmed: user?.emailConfirmed ?? false };
}

/** 'Confirm my address' (the link's token), or 'Send it again' (the banner's button, for the signed-in account). */
export async function action({ request, url, context }: Route.ActionArgs) {
  const { auth, config, database } = context.services;
  const form = await readFormData(request);
  return handleFormAction({
    form,
    logger: context.logger,
    intent: form.get("intent") === "send" ? "send" : "confirm",
    intents: {
      confirm: {
        schema: confirmEmailSchema,
        run: (input: ConfirmEmailInput) => confirmEmail(auth, config, request, input),
      },
      send: {
        schema: resendConfirmationSchema,
        run: async () => resendEmailConfirmation(auth, database.db, config, request, await requireSessionUser(auth, request, url)),
      },
    },
  });
}

const linkClass = "font-semibold text-brand-700 underline-offset-2 hover:underline";

export default function ConfirmEmail({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const done = actionData?.ok === true ? actionData.message : null;
  const failure = actionData?.ok === false ? actionData.formError : null;
  const { token, tokenGiven, signedIn, emailConfirmed } = loaderData;
  const deadLink = failure ?? (tokenGiven && !token ? CONFIRM_LINK_INVALID_MESSAGE : null);

  if (done) {
    return (
      <AuthCard title="Confirm your e-mail address">
        <AuthNotice tone="success">{done}</AuthNotice>
        <Link to={signedIn ? "/my-projects" : "/auth"} className={`${primaryButtonClass} mt-5 w-full py-3 text-base`}>
          {signedIn ? "Go to My Projects" : "Sign in"}
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Confirm your e-mail address" subtitle="Lead alerts and reports go to your address only once you confirm it.">
      {deadLink ? <FormAlert message={deadLink} /> : null}
      {token && !deadLink ? (
        <Form method="post" className="mt-5">
          <input type="hidden" name="intent" value="confirm" />
          <input type="hidden" name="token" value={token} />
          <SubmitButton busy={busy} label="Confirm my address" busyLabel="Confirming..." />
        </Form>
      ) : signedIn && !emailConfirmed ? (
        <Form method="post" className="mt-5">
          <input type="hidden" name="intent" value="send" />
          <SubmitButton busy={busy} label="Send it again" busyLabel="Sending..." />
        </Form>
      ) : signedIn ? (
        <AuthNotice tone="info">Your e-mail address is confirmed.</AuthNotice>
      ) : (
        <p className="mt-5 text-sm text-slate-600">
          <Link to="/auth" className={linkClass}>
            Sign in
          </Link>{" "}
          to send a new link.
        </p>
      )}
    </AuthCard>
  );
}
