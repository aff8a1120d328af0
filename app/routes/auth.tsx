import { readFormData } from "~/modules/http/form-body.server";
import { ArrowLeft } from "lucide-react";
import { useState } from "react";
import { data, Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import { primaryButtonClass } from "~/components/ui/buttons";
import { FieldError, FormAlert, inputClass, labelClass } from "~/components/ui/form-fields";
import { signInSchema, signUpSchema } from "~/modules/auth/auth-form";
import { outcomeHeaders, signIn, signUp } from "~/modules/auth/gateway.server";
import { safeReturnTo } from "~/modules/auth/return-to";
import { getSessionUser } from "~/modules/auth/session.server";
import { formToObject, validate, type FieldErrors } from "~/modules/forms/validation";
import { serializeFlash } from "~/modules/flash/flash.server";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/auth";

type Mode = "signin" | "signup";

export const meta: Route.MetaFunction = () => [{ title: `Sign in · ${PRODUCT_NAME}` }];

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const returnTo = safeReturnTo(url.searchParams.get("returnTo"));
  if (await getSessionUser(context.services.auth, request)) throw redirect(returnTo);
  return { returnTo };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { auth, config, database, flashCookie } = context.services;
  const values = formToObject(await readFormData(request));
  const mode: Mode = values.intent === "signup" ? "signup" : "signin";
  const echo = { email: values.email ?? "", name: values.name ?? "" };

  if (mode === "signup") {
    const input = validate(signUpSchema, values);
    if (!input.ok) return data({ mode, fieldErrors: input.fieldErrors, formError: null, signedUp: false, echo }, { status: 400 });
    const outcome = await signUp(auth, database.db, config, request, input.data);
    if (!outcome.ok) return data({ mode, fieldErrors: {}, formError: outcome.message, signedUp: false, echo }, { status: outcome.status, headers: outcomeHeaders(outcome) });
    return { mode: "signin" as Mode, fieldErrors: {}, formError: null, signedUp: true, echo: { email: "", name: "" } };
  }

  const input = validate(signInSchema, values);
  if (!input.ok) return data({ mode, fieldErrors: input.fieldErrors, formError: null, signedUp: false, echo }, { status: 400 });
  const outcome = await signIn(auth, config, request, input.data);
  if (!outcome.ok) return data({ mode, fieldErrors: {}, formError: outcome.message, signedUp: false, echo }, { status: outcome.status, headers: outcomeHeaders(outcome) });

  const headers = new Headers();
  for (const cookie of outcome.setCookies) headers.append("Set-Cookie", cookie);
  headers.append("Set-Cookie", await serializeFlash(flashCookie, { toast: { type: "success", message: "Successfully signed in!" } }));
  return redirect(safeReturnTo(values.returnTo), { headers });
}

export default function AuthPage({ loaderData, actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  const requestedMode: Mode = searchParams.get("mode") === "signup" ? "signup" : "signin";
  const mode: Mode = actionData?.mode ?? requestedMode;
  const tabHref = (target: Mode) => {
    const params = new URLSearchParams(searchParams);
    params.set("mode", target);
    return `?${params.toString()}`;
  };

  return (
    <main className="mx-auto max-w-md px-4 py-8">
      <Link to="/" className="inline-flex items-center gap-1 text-sm font-medium text-slate-600 hover:text-slate-900">
        <ArrowLeft aria-hidden className="size-4" /> Back to home
      </Link>
      <div className="mt-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-2xl font-bold">{mode === "signin" ? "Welcome back" : "Create your account"}</h1>
        <p className="mt-1 text-sm text-slate-600">Publish a pitch page, print a QR code per event, and watch the scans turn into meetings.</p>
        <div role="tablist" aria-label="Sign in or sign up" className="mt-5 grid grid-cols-2 rounded-lg bg-slate-100 p-1 text-sm font-medium">
          {(["signin", "signup"] as const).map((tab) => (
            <Link
              key={tab}
              role="tab"
              aria-selected={mode === tab}
              to={tabHref(tab)}
              replace
              preventScrollReset
              className={`rounded-md px-3 py-2 text-center ${mode === tab ? "bg-white shadow-sm" : "text-slate-600 hover:text-slate-900"}`}
            >
              {tab === "signin" ? "Sign In" : "Sign Up"}
            </Link>
          ))}
        </div>
        {actionData?.signedUp ? (
          <p role="status" className="mt-4 rounded-md bg-emerald-50 px-3 py-2 text-sm font-medium text-emerald-800">
            Account created! You can now sign in.
          </p>
        ) : null}
        <AuthForm
          key={`${mode}-${actionData?.signedUp ? "done" : "form"}`}
          mode={mode}
          returnTo={loaderData.returnTo}
          serverErrors={actionData?.mode === mode ? actionData.fieldErrors : {}}
          formError={actionData?.mode === mode ? actionData.formError : null}
          echo={actionData?.mode === mode ? actionData.echo : undefined}
        />
      </div>
    </main>
  );
}

function AuthForm(props: {
  mode: Mode;
  returnTo: string;
  serverErrors: FieldErrors;
  formError: string | null;
  echo?: { email: string; name: string };
}) {
  const { mode, returnTo } = props;
  const navigation = useNavigation();
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  const errors = clientErrors ?? props.serverErrors;
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === mode;

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    const values = formToObject(new FormData(event.currentTarget));
    const result = validate(mode === "signup" ? signUpSchema : signInSchema, values);
    if (!result.ok) {
      event.preventDefault();
      setClientErrors(result.fieldErrors);
    } else {
      setClientErrors({});
    }
  }

  return (
    <Form method="post" noValidate onSubmit={onSubmit} className="mt-5 space-y-4">
      <input type="hidden" name="intent" value={mode} />
      <input type="hidden" name="returnTo" value={returnTo} />
      {mode === "signup" ? (
        <div>
          <label htmlFor="name" className={labelClass}>
            Name <span className="font-normal text-slate-500">(optional)</span>
          </label>
          <input id="name" name="name" autoComplete="name" defaultValue={props.echo?.name} className={inputClass} aria-invalid={!!errors.name} />
          <FieldError id="name-error" message={errors.name} />
        </div>
      ) : null}
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
          defaultValue={props.echo?.email}
          className={inputClass}
          aria-invalid={!!errors.email}
          aria-describedby={errors.email ? "email-error" : undefined}
        />
        <FieldError id="email-error" message={errors.email} />
      </div>
      <div>
        <label htmlFor="password" className={labelClass}>
          Password
        </label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete={mode === "signup" ? "new-password" : "current-password"}
          required
          minLength={6}
          className={inputClass}
          aria-invalid={!!errors.password}
          aria-describedby={errors.password ? "password-error" : undefined}
        />
        <FieldError id="password-error" message={errors.password} />
      </div>
      <FormAlert message={clientErrors && Object.keys(clientErrors).length ? null : props.formError} />
      <button type="submit" disabled={busy} className={`${primaryButtonClass} w-full`}>
        {mode === "signin" ? (busy ? "Signing in..." : "Sign In") : busy ? "Creating account..." : "Create Account"}
      </button>
    </Form>
  );
}
