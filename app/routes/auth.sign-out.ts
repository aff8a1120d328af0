import { redirect } from "react-router";
import { signOut } from "~/modules/auth/gateway.server";
import type { Route } from "./+types/auth.sign-out";

/** Signing out always goes home; a refusal from the auth provider is only logged (the session cookie stays). */
export async function action({ request, context }: Route.ActionArgs) {
  const { auth, config } = context.services;
  const headers = new Headers();
  try {
    const outcome = await signOut(auth, config, request);
    for (const cookie of outcome.setCookies) headers.append("Set-Cookie", cookie);
  } catch (error) {
    context.logger.warn({ err: error }, "sign-out failed");
  }
  return redirect("/", { headers });
}

export function loader() {
  return redirect("/");
}
