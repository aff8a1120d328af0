import { data, Form, Link, useNavigation } from "react-router";
import { AuthCard, AuthNotice } from "~/components/auth/auth-card";
import { primaryButtonClass, SubmitButton } from "~/components/ui/buttons";
import { FormAlert, TextField } from "~/components/ui/form-fields";
import { useSchemaForm } from "~/components/ui/use-schema-form";
import { RESET_LINK_INVALID_MESSAGE, resetPasswordSchema, type ResetPasswordInput } from "~/modules/auth/auth-form";
import { checkPasswordResetToken, resetPassword } from "~/modules/auth/gateway.server";
import { handleFormAction } from "~/modules/forms/form-action.server";
import { orErrorPage } from "~/modules/http/domain-errors.server";
import { readFormData } from "~/modules/http/form-body.server";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/auth.reset-password";

export const meta: Route.MetaFunction = () => [{ title: `Choose a new password · ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

/** Opening a reset link changes nothing: it only says whether the link still works (unknown, used, expired: it does not). */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  const { auth, config } = context.services;
  const token = url.searchParams.get("token");
  // A client opening link after link: better-auth's limiter says how long to wait (429 with Retry-After).
  return orErrorPage(
    async () => {
      const valid = (await checkPasswordResetToken(auth, config, request, token)) === "valid";
      return data({ token: valid ? token : null, invalidMessage: valid ? null : RESET_LINK_INVALID_MESSAGE }, { status: valid ? 200 : 400 });
    },
    { codes: ["rate_limited"], as: "page", page: (error) => ({ token: null, invalidMessage: error.message }) },
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  const { auth, config } = context.services;
  const form = await readFormData(request);
  return handleFormAction({
    form,
    logger: context.logger,
    intent: "reset",
    intents: {
      reset: {
        schema: resetPasswordSchema,
        run: (input: ResetPasswordInput) => resetPassword(auth, config, request, input),
      },
    },
  });
}

const linkClass = "font-semibold text-brand-700 underline-offset-2 hover:underline";

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const done = actionData?.ok === true ? actionData.message : null;
  const failure = actionData?.ok === false ? actionData : undefined;
  // A link found dead on opening, or refused on submitting (used meanwhile, expired): no form, the way to a new one.
  const deadLink = loaderData.invalidMessage ?? (failure?.formError === RESET_LINK_INVALID_MESSAGE ? failure.formError : null);
  const { form, field, formError } = useSchemaForm(resetPasswordSchema, { id: "auth", hidden: ["token"], lastResult: actionData, busy });

  if (done) {
    return (
      <AuthCard title="Password changed">
        <AuthNotice tone="success">{done}</AuthNotice>
        <Link to="/auth" className={`${primaryButtonClass} mt-5 w-full py-3 text-base`}>
          Sign in
        </Link>
      </AuthCard>
    );
  }

  if (deadLink || !loaderData.token) {
    return (
      <AuthCard title="Reset your password">
        <FormAlert message={deadLink ?? RESET_LINK_INVALID_MESSAGE} />
        <p className="mt-4 text-sm text-slate-600">Nothing was changed: your password is still the one you had.</p>
        <Link to="/auth/forgot-password" className={`${primaryButtonClass} mt-5 w-full py-3 text-base`}>
          Send a new link
        </Link>
        <p className="mt-5 text-center text-sm text-slate-600">
          <Link to="/auth" className={linkClass}>
            Back to sign in
          </Link>
        </p>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Choose a new password" subtitle="At least 6 characters. Every device signed in to your account will be signed out.">
      <Form method="post" {...form} className="mt-5 space-y-4">
        <input type="hidden" name="token" value={loaderData.token} />
        <TextField {...field("password")} label="New password" requiredMark={false} type="password" autoComplete="new-password" />
        <FormAlert message={formError} />
        <SubmitButton busy={busy} label="Set new password" busyLabel="Saving..." />
      </Form>
    </AuthCard>
  );
}
