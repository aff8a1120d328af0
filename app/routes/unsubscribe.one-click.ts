import { redirect } from "react-router";
import { unsubscribeByToken } from "~/modules/contacts/unsubscribe-link.server";
import type { Route } from "./+types/unsubscribe.one-click";

/**
 * RFC 8058 one-click unsubscribe: the URL of an e-mail's List-Unsubscribe header. Mail providers POST
 * `List-Unsubscribe=One-Click` to it from their own servers; the signed token is the only authority needed.
 */
export async function action({ request, url, context }: Route.ActionArgs) {
  if (request.method !== "POST") return new Response("Method Not Allowed", { status: 405, headers: { Allow: "GET, POST" } });
  const token = url.searchParams.get("token") ?? "";
  const result = await unsubscribeByToken(context.services, token);
  const text = result.done ? "You've been unsubscribed." : `${result.title}. ${result.message}`;
  return new Response(text, { status: result.done ? 200 : 400, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}

/** A person who opens the header's link in a browser gets the page. */
export function loader({ url }: Route.LoaderArgs) {
  const token = url.searchParams.get("token") ?? "";
  return redirect(`/unsubscribe?token=${encodeURIComponent(token)}`);
}
