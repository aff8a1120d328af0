import { useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { AuthCard, AuthNotice } from "~/components/auth/auth-card";
import { SubmitButton } from "~/components/ui/buttons";
import { FieldError, FormAlert, inputClass, labelClass } from "~/components/ui/form-fields";
import { forgotPasswordSchema, type ForgotPasswordInput } from "~/modules/auth/auth-form";
import { requestPasswordReset } from "~/modules/auth/gateway.server";
import { handleFormAction } from "~/modules/forms/form-action.server";
import { formToObject, validate, type FieldErrors } from "~/modules/forms/validation";
import { readFormData } from "~/modules/http/form-body.server";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/auth.forgot-password";

export const meta: Route.MetaFunction = () => [{ title: `Forgot password · ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

/** Mails a reset link when the address has an account; answers the same either way (issue 23). */
export async function action({ request, context }: Route.ActionArgs) {
  const { auth, config, database } = context.services;
  const form = await readFormData(request);
  return handleFormAction({
    form,
    logger: context.logger,
    intent: "request",
    intents: {
      request: {
        schema: forgotPasswordSchema,
        echo: (posted) => ({ email: String(posted.get("email") ?? "") }),
        run: (input: ForgotPasswordInput) => requestPasswordReset(auth, database.db, config, request, input),
      },
    },
  });
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  const sent = actionData?.ok === true ? actionData.message : null;
  const failure = actionData?.ok === false ? actionData : undefined;
  const errors = clientErrors ?? failure?.fieldErrors ?? {};

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    const result = validate(forgotPasswordSchema, formToObject(new FormData(event.currentTarget)));
    if (!result.ok) {
      event.preventDefault();
      setClientErrors(result.fieldErrors);
    } else {
      setClientErrors({});
    }
  }

  return (
    <AuthCard title="Forgot your password?" subtitle="Type the address you sign in with. We'll e-mail you a link to choose a new password.">
      {sent ? (
        <>
          <AuthNotice tone="success">{sent}</AuthNotice>
          <p className="mt-4 text-sm text-slate-600">No e-mail after a few minutes? Check your spam folder, or ask again below.</p>
        </>
      ) : null}
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
            inputMode="email"
            required
            defaultValue={failure?.values?.email}
            className={inputClass}
            aria-invalid={!!errors.email}
            aria-describedby={errors.email ? "email-error" : undefined}
          />
          <FieldError id="email-error" message={errors.email} />
        </div>
        <FormAlert message={clientErrors && Object.keys(clientErrors).length ? null : failure && !Object.keys(failure.fieldErrors).length ? failure.formError : null} />
        <SubmitButton busy={busy} label={sent ? "Send another link" : "Send reset link"} busyLabel="Sending..." />
      </Form>
      <p className="mt-5 text-center text-sm text-slate-600">
        Remembered it?{" "}
        <Link to="/auth" className="font-semibold text-brand-700 underline-offset-2 hover:underline">
          Back to sign in
        </Link>
      </p>
    </AuthCard>
  );
}
