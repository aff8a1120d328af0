import { Form, Link, useNavigation } from "react-router";
import { AuthCard, AuthNotice } from "~/components/auth/auth-card";
import { SubmitButton } from "~/components/ui/buttons";
import { FormAlert, TextField } from "~/components/ui/form-fields";
import { useSchemaForm } from "~/components/ui/use-schema-form";
import { forgotPasswordSchema, type ForgotPasswordInput } from "~/modules/auth/auth-form";
import { requestPasswordReset } from "~/modules/auth/gateway.server";
import { handleFormAction } from "~/modules/forms/form-action.server";
import { readFormData } from "~/modules/http/form-body.server";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/auth.forgot-password";

export const meta: Route.MetaFunction = () => [{ title: `Forgot password · ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

/** Mails a reset link when the address has an account; answers the same either way. */
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
  const sent = actionData?.ok === true ? actionData.message : null;
  const failure = actionData?.ok === false ? actionData : undefined;
  const { form, field, formError } = useSchemaForm(forgotPasswordSchema, { id: "auth", lastResult: actionData, busy });

  return (
    <AuthCard title="Forgot your password?" subtitle="Type the address you sign in with. We'll e-mail you a link to choose a new password.">
      {sent ? (
        <>
          <AuthNotice tone="success">{sent}</AuthNotice>
          <p className="mt-4 text-sm text-slate-600">No e-mail after a few minutes? Check your spam folder, or ask again below.</p>
        </>
      ) : null}
      <Form method="post" {...form} className="mt-5 space-y-4">
        <TextField {...field("email")} label="Email" requiredMark={false} type="email" autoComplete="email" inputMode="email" defaultValue={failure?.values?.email} />
        <FormAlert message={formError} />
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
