import { readFormData } from "~/modules/http/form-body.server";
import { postVisitorForm } from "~/modules/visitor-forms/http/visitor-form-http.server";
import type { Route } from "./+types/pitch.submit";

/**
 * The anonymous pitch page's forms, submitted in place by its enhancement module (decision 13): the same
 * handling as the page's own action, answered as JSON. An `Idempotency-Key` header makes a repeated post
 * (a submission kept offline and sent again) answer the first result and write nothing twice.
 */
export async function action({ params, request, context }: Route.ActionArgs) {
  const form = await readFormData(request);
  const post = await postVisitorForm(context, request, params.slug, form, request.headers.get("idempotency-key"));
  if (!post.project) return Response.json({ error: "Project not found" }, { status: 404 });
  const headers = new Headers(post.headers);
  headers.set("Cache-Control", "no-store");
  return Response.json(post.result, { status: post.status, headers });
}
