import { readFormData } from "~/modules/http/form-body.server";
import { Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import { primaryButtonClass } from "~/components/ui/buttons";
import { FormAlert, TextField } from "~/components/ui/form-fields";
import { useSchemaForm } from "~/components/ui/use-schema-form";
import { useBrowserTimeZone } from "~/components/ui/use-clock";
import { signInSchema, signUpSchema, type SignInInput, type SignUpInput } from "~/modules/auth/auth-form";
import { signIn, signInToJoinTeam, signUp, type AuthOutcome } from "~/modules/auth/gateway.server";
import { invitedAddress, signUpAccess } from "~/modules/auth/invitations.server";
import { AuthCard, AuthNotice } from "~/components/auth/auth-card";
import { safeReturnTo } from "~/modules/auth/return-to";
import { getSessionUser } from "~/modules/auth/session.server";
import { handleFormAction, intentOf } from "~/modules/forms/form-action.server";
import type { FormFailure, SubmittedValues } from "~/modules/forms/form-result";
import { formToObject } from "~/modules/forms/validation";
import { serializeFlash } from "~/modules/flash/flash.server";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/auth";

type Mode = "signin" | "signup";

export const meta: Route.MetaFunction = () => [{ title: `Sign in · ${PRODUCT_NAME}` }];

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const { auth, config, database } = context.services;
  const returnTo = safeReturnTo(url.searchParams.get("returnTo"));
  if (await getSessionUser(auth, request)) throw redirect(returnTo);
  const invitation = url.searchParams.get("invitation");
  const [signUpOffer, invitedEmail] = await Promise.all([signUpAccess(database.db, config.signup, invitation), invitedAddress(database.db, invitation)]);
  return { returnTo, signUp: signUpOffer, invitedEmail };
}

/** What a failed sign-in or sign-up shows again in its form (never the password). */
const echoAccount = (form: FormData): SubmittedValues => ({ email: String(form.get("email") ?? ""), name: String(form.get("name") ?? "") });

export async function action({ request, context }: Route.ActionArgs) {
  const { auth, config, database, flashCookie, pageDoor } = context.services;
  const form = await readFormData(request);
  /** The session's cookies, this device marked as the team's (decision 52), and the toast to show where it lands. */
  const signedIn = async (outcome: AuthOutcome, message: string) => {
    const headers = new Headers();
    for (const cookie of outcome.setCookies) headers.append("Set-Cookie", cookie);
    // The device is now the team's, also once signed out: its visits to the team's pitches are not visitors' (decision 52).
    if (outcome.userId) headers.append("Set-Cookie", pageDoor.teamDeviceCookie(outcome.userId, request.headers.get("cookie")));
    headers.append("Set-Cookie", await serializeFlash(flashCookie, { toast: { type: "success", message } }));
    return headers;
  };
  return handleFormAction<Mode>({
    form,
    logger: context.logger,
    intent: intentOf(form, ["signin", "signup"]),
    intents: {
      signin: {
        schema: signInSchema,
        echo: echoAccount,
        run: async (input: SignInInput) => {
          const outcome = await signIn(auth, config, request, input);
          return redirect(safeReturnTo(formToObject(form).returnTo), { headers: await signedIn(outcome, "Successfully signed in!") });
        },
      },
      signup: {
        schema: signUpSchema,
        echo: echoAccount,
        run: async (input: SignUpInput) => {
          await signUp(auth, database.db, config, request, input);
          const joining = await signInToJoinTeam(auth, database.db, config, request, input);
          if (joining) return redirect(joining.joinPath, { headers: await signedIn(joining.outcome, "Account created: you are signed in") });
          return { message: "Account created! You can now sign in." };
        },
      },
    },
  });
}

export default function AuthPage({ loaderData, actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  const requestedMode: Mode = searchParams.get("mode") === "signup" ? "signup" : "signin";
  // A sign-up that worked shows the sign-in form; a failure shows its own form again with what was typed.
  const signedUp = actionData?.ok === true && actionData.intent === "signup";
  const failure = actionData?.ok === false ? actionData : undefined;
  const mode: Mode = signedUp ? "signin" : (actionData?.intent ?? requestedMode);
  const tabHref = (target: Mode) => {
    const params = new URLSearchParams(searchParams);
    params.set("mode", target);
    return `?${params.toString()}`;
  };

  const access = loaderData.signUp;
  return (
    <AuthCard
      title={mode === "signin" ? "Welcome back" : "Create your account"}
      subtitle="Publish a pitch page, print a QR code per event, and watch the scans turn into meetings."
    >
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
      {signedUp ? <AuthNotice tone="success">{actionData.message}</AuthNotice> : null}
      {mode === "signup" && access.notice ? <AuthNotice tone="info">{access.notice}</AuthNotice> : null}
      {mode === "signup" && !access.form ? (
        <p className="mt-4 text-sm text-slate-600">
          Have an account?{" "}
          <Link to={tabHref("signin")} replace className="font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-800">
            Sign in
          </Link>
        </p>
      ) : (
        <AuthForm
          key={`${mode}-${signedUp ? "done" : "form"}`}
          mode={mode}
          returnTo={loaderData.returnTo}
          invitation={access.invitation}
          invitedEmail={loaderData.invitedEmail}
          failure={failure}
        />
      )}
    </AuthCard>
  );
}

function AuthForm(props: { mode: Mode; returnTo: string; invitation: string; invitedEmail: string; failure?: FormFailure<Mode> | undefined }) {
  const { mode, returnTo, failure } = props;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === mode;
  const { form, field, formError } = useSchemaForm(mode === "signup" ? signUpSchema : signInSchema, {
    id: "auth",
    hidden: ["invitation"],
    lastResult: failure,
    busy,
  });
  const browserTimeZone = useBrowserTimeZone();

  return (
    <Form method="post" {...form} className="mt-5 space-y-4">
      <input type="hidden" name="intent" value={mode} />
      <input type="hidden" name="returnTo" value={returnTo} />
      {mode === "signup" && props.invitation ? <input type="hidden" name="invitation" value={props.invitation} /> : null}
      {mode === "signup" ? <input type="hidden" name="timeZone" value={browserTimeZone} /> : null}
      {mode === "signup" ? (
        // A name past the limit is refused with its message rather than cut while typing (sign-up.test.ts).
        <TextField {...field("name")} maxLength={undefined} label="Name" optional autoComplete="name" defaultValue={failure?.values?.name} />
      ) : null}
      <TextField {...field("email")} label="Email" requiredMark={false} type="email" autoComplete="email" inputMode="email" defaultValue={failure?.values?.email ?? (props.invitedEmail || undefined)} />
      <TextField
        {...field("password")}
        label="Password"
        requiredMark={false}
        type="password"
        autoComplete={mode === "signup" ? "new-password" : "current-password"}
        aside={
          mode === "signin" ? (
            <Link to="/auth/forgot-password" className="-my-2 py-2 text-sm font-medium text-brand-700 underline-offset-2 hover:underline">
              Forgot password?
            </Link>
          ) : null
        }
      />
      <FormAlert message={formError} />
      <button type="submit" disabled={busy} className={`${primaryButtonClass} w-full`}>
        {mode === "signin" ? (busy ? "Signing in..." : "Sign In") : busy ? "Creating account..." : "Create Account"}
      </button>
    </Form>
  );
}
