import { contentDisposition } from "~/modules/http/content-disposition";
import { isSiteIconName, SITE_ICONS, type RenderedIcon } from "./app-icons.server";

const DAY = 86_400;

/**
 * An icon PNG (or SVG) with its ETag. Versioned URLs (`?v=` matching the ETag) are cached for a year; fixed
 * URLs (the manifest's icons, the favicon) for a day, then revalidated.
 */
export function iconResponse(
  request: Request,
  icon: RenderedIcon,
  options: { contentType?: string; fileName?: string } = {},
): Response {
  const version = new URL(request.url).searchParams.get("v");
  const immutable = version !== null && `"${version}"` === icon.etag;
  const headers = new Headers({
    "Content-Type": options.contentType ?? "image/png",
    "Cache-Control": immutable ? "public, max-age=31536000, immutable" : `public, max-age=${DAY}, stale-while-revalidate=${7 * DAY}`,
    ETag: icon.etag,
  });
  if (options.fileName) headers.set("Content-Disposition", contentDisposition(options.fileName, "inline"));
  if (request.headers.get("if-none-match") === icon.etag) return new Response(null, { status: 304, headers });
  return new Response(request.method === "HEAD" ? null : new Uint8Array(icon.png), { headers });
}

export function notFound(): Response {
  return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}

/** One of the site's fixed icons by file name, or 404. */
export async function siteIconResponse(request: Request, name: string): Promise<Response> {
  if (!isSiteIconName(name)) return notFound();
  const icon = SITE_ICONS[name];
  return iconResponse(request, await icon.render(), { contentType: icon.contentType });
}
