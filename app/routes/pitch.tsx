import { readFormData } from "~/modules/http/form-body.server";
import { data, redirect, useRouteLoaderData, type ShouldRevalidateFunctionArgs } from "react-router";
import { PitchPageView } from "~/components/pitch/pitch-page-view";
import { getSessionUser } from "~/modules/auth/session.server";
import { pitchManifestPath, type InstallTarget } from "~/modules/icons/web-manifest";
import { serializeFlash } from "~/modules/flash/flash.server";
import { loadPitchPage } from "~/modules/pitch/pitch-page.server";
import { currentSlugOf, MOVED_PITCH_CACHE_CONTROL, MOVED_PITCH_STATUS, movedPitchLocation } from "~/modules/pitch/moved-pitch.server";
import { confirmationText, FAILURE_MESSAGES, NEXT_STEPS, visitorIntentOf, type VisitorActionResult } from "~/modules/contacts/visitor-form-rules";
import { postVisitorForm } from "~/modules/visitor-forms/http/visitor-form-http.server";
import { PRODUCT_NAME } from "~/product";
import type { loader as rootLoader } from "~/root";
import type { Route } from "./+types/pitch";

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const { auth, database } = context.services;
  const viewer = await getSessionUser(auth, request);
  const page = await loadPitchPage(database.db, params.slug, viewer?.id ?? null);
  if (!page) {
    // A slug the project had before (decision 63); the HTTP layer answers page loads the same way before this.
    const current = await currentSlugOf(database.db, params.slug, viewer?.id ?? null);
    if (current) throw redirect(movedPitchLocation(current, new URL(request.url).search), { status: MOVED_PITCH_STATUS, headers: { "Cache-Control": MOVED_PITCH_CACHE_CONTROL } });
    return data({ page: null, publicUrl: context.services.config.publicUrl }, { status: 404 });
  }
  // One counting path (decision 47): a page load is counted at the door, never by the page.
  return { page, publicUrl: context.services.config.publicUrl };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const form = await readFormData(request);
  // A form submitted by the hydrated page asks for data back; a plain HTML form gets a redirect.
  const viaFetch = form.get("via") === "fetch";
  const post = await postVisitorForm(context, request, params.slug, form);
  if (!post.project) throw data("Project not found", { status: 404 });
  const { intent, outcome, result, status, headers } = post;
  if (!outcome || viaFetch) return data(result, { status, headers });

  const pagePath = `/pitch/${encodeURIComponent(post.project.slug)}`;
  if (outcome.held) {
    // Held for the founder's review (decision 50): said as it is, with no success page or blurb.
    const cookie = await serializeFlash(context.services.flashCookie, { toast: { type: "success", message: outcome.message } });
    return redirect(pagePath, { headers: { "Set-Cookie": cookie } });
  }
  if (intent === "signal") return redirect("/pledge-success");
  if (intent === "intro") {
    const cookie = await serializeFlash(context.services.flashCookie, { introBlurb: outcome.blurb ?? "" });
    return redirect(`${pagePath}?dialog=intro&sent=1`, { headers: { "Set-Cookie": cookie } });
  }
  const cookie = await serializeFlash(context.services.flashCookie, { toast: { type: "success", message: confirmationText(intent, { message: outcome.message, next: NEXT_STEPS[intent] }) } });
  return redirect(pagePath, { headers: { "Set-Cookie": cookie } });
}

/** A dropped connection while submitting shows the form's failure message instead of the error page. */
export async function clientAction({ request, serverAction }: Route.ClientActionArgs) {
  const intent = visitorIntentOf((await request.clone().formData()).get("intent"));
  try {
    return await serverAction();
  } catch (error) {
    if (error instanceof Response) throw error;
    return { intent, ok: false, formError: FAILURE_MESSAGES[intent], fieldErrors: {} } satisfies VisitorActionResult;
  }
}

export const meta: Route.MetaFunction = ({ data: loaderData }) => {
  const page = loaderData?.page;
  if (!page) return [{ title: `Project not found · ${PRODUCT_NAME}` }];
  const url = `${loaderData.publicUrl}/pitch/${page.project.slug}`;
  return [
    { title: `${page.project.title} · ${PRODUCT_NAME}` },
    { name: "description", content: page.project.oneLiner },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: PRODUCT_NAME },
    { property: "og:title", content: page.project.title },
    { property: "og:description", content: page.project.oneLiner },
    { property: "og:url", content: url },
    { name: "twitter:card", content: "summary" },
    { name: "twitter:title", content: page.project.title },
    { name: "twitter:description", content: page.project.oneLiner },
    { tagName: "link", rel: "canonical", href: url },
    ...(page.project.isDraft ? [{ name: "robots", content: "noindex" }] : []),
  ];
};

/** Added to a home screen, a published pitch keeps its title and opens itself (decision 11). */
export const handle = {
  install(data: unknown): InstallTarget | null {
    const page = (data as { page?: { project: { slug: string; title: string; isDraft: boolean } } | null } | undefined)?.page;
    if (!page || page.project.isDraft) return null;
    return { manifest: pitchManifestPath(page.project.slug), name: page.project.title };
  },
};

/** Opening or closing a dialog only changes `?dialog=`: no need to reload the page's data. */
export function shouldRevalidate({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formMethod) return defaultShouldRevalidate;
  if (currentUrl.pathname === nextUrl.pathname) {
    const strip = (url: URL) => {
      const params = new URLSearchParams(url.search);
      params.delete("dialog");
      params.delete("sent");
      // `?qr=` names the code that brought the visitor (decision 94); it changes nothing on the page.
      params.delete("qr");
      return params.toString();
    };
    if (strip(currentUrl) === strip(nextUrl)) return false;
  }
  return defaultShouldRevalidate;
}

export default function PitchRoute({ loaderData, actionData }: Route.ComponentProps) {
  const enhanced = Boolean(useRouteLoaderData<typeof rootLoader>("root")?.pitchClient);
  if (!loaderData.page) {
    return (
      <main className="mx-auto max-w-xl px-4 py-24 text-center">
        <h1 className="text-2xl font-bold">Project not found</h1>
        <p className="mt-3 text-slate-600">This project doesn&apos;t exist or has been removed.</p>
      </main>
    );
  }
  return <PitchPageView page={loaderData.page} actionData={actionData as VisitorActionResult | undefined} enhanced={enhanced} />;
}
