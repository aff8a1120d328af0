import { redirect } from "react-router";
import { signOut } from "~/modules/auth/gateway.server";
import type { Route } from "./+types/auth.sign-out";

export async function action({ request, context }: Route.ActionArgs) {
  const { auth, config } = context.services;
  const outcome = await signOut(auth, config, request);
  const headers = new Headers();
  if (outcome.ok) for (const cookie of outcome.setCookies) headers.append("Set-Cookie", cookie);
  else context.logger.warn({ status: outcome.status, message: outcome.message }, "sign-out failed");
  return redirect("/", { headers });
}

export function loader() {
  return redirect("/");
}
