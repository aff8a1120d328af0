import crypto from "node:crypto";
import { renderAsync } from "@resvg/resvg-js";
import { DomainError } from "~/modules/errors.server";
import { appIconSvg } from "./app-icon-svg";
import { opaqueRowsUpFiltered, paletteRows, writePng } from "./png-file.server";
import { APP_ICON_SIZE, CONCEPT_MESSAGE, isAppIconConcept, type AppIconConcept } from "./concepts";

/**
 * App icons rendered from their SVG with resvg (decision 11), once per process and size, then kept in memory.
 * Square icons are written as RGB PNGs (no alpha channel at all, as iOS requires of an app icon); the rounded
 * favicon keeps its transparent corners.
 */

export type RenderedIcon = { png: Buffer; etag: string };

const cache = new Map<string, Promise<RenderedIcon>>();

function etagOf(bytes: Buffer): string {
  return `"${crypto.createHash("sha256").update(bytes).digest("base64url").slice(0, 22)}"`;
}

/**
 * The site's icons in 48 colours: the 192 px one is 4.8 KB instead of 18 KB, and a gradient's steps
 * stay a level or two apart, not visible at an icon's size (at 32 colours the corner's light shows bands).
 */
const SITE_ICON_COLORS = 48;

/**
 * Renders SVG markup to a PNG `width` pixels wide: RGBA when `transparent`; opaque RGB when `lossless` (the
 * generator's 1024 px download); otherwise an opaque palette image (the site's icons).
 */
export async function renderSvgToPng(svg: string, width: number, encoding: "transparent" | "lossless" | "palette"): Promise<Buffer> {
  const image = await renderAsync(svg, { fitTo: { mode: "width", value: width }, font: { loadSystemFonts: false }, logLevel: "off" });
  if (encoding === "transparent") return image.asPng();
  if (encoding === "palette") {
    const { palette, rows } = paletteRows(image.pixels, image.width, image.height, SITE_ICON_COLORS);
    return writePng({ width: image.width, height: image.height, bitDepth: 8, colorType: "palette" }, rows, palette);
  }
  return writePng({ width: image.width, height: image.height, bitDepth: 8, colorType: "rgb" }, opaqueRowsUpFiltered(image.pixels, image.width, image.height));
}

function cached(key: string, render: () => Promise<Buffer>): Promise<RenderedIcon> {
  let entry = cache.get(key);
  if (!entry) {
    entry = render().then((png) => ({ png, etag: etagOf(png) }));
    // A failed render is not kept: the next request tries again.
    entry.catch(() => cache.delete(key));
    cache.set(key, entry);
  }
  return entry;
}

/** Concept `n` as a square, opaque PNG: 1024x1024 RGB for the generator, or a palette image at a site icon's size. */
export function renderAppIcon(concept: AppIconConcept, size: number = APP_ICON_SIZE): Promise<RenderedIcon> {
  const encoding = size === APP_ICON_SIZE ? "lossless" : "palette";
  return cached(`concept-${concept}@${size}`, () => renderSvgToPng(appIconSvg(concept), size, encoding));
}

/** Concept 1 with rounded corners (favicon). */
export function renderRoundedIcon(size: number): Promise<RenderedIcon> {
  return cached(`rounded@${size}`, () => renderSvgToPng(appIconSvg(1, { rounded: true }), size, "transparent"));
}

/** The path the generator's PNG is served from; the version makes it cacheable for a year. */
export function appIconPath(concept: AppIconConcept, etag: string): string {
  return `/app-icons/concept-${concept}.png?v=${encodeURIComponent(etag.replaceAll('"', ""))}`;
}

/**
 * `generate-app-icon`: renders the concept (or finds it rendered) and answers where its
 * 1024x1024 PNG is served.
 */
export async function generateAppIcon(concept: unknown): Promise<{ imageUrl: string; concept: AppIconConcept; width: number; height: number }> {
  if (!isAppIconConcept(concept)) throw new DomainError("invalid_input", CONCEPT_MESSAGE);
  const icon = await renderAppIcon(concept);
  return { imageUrl: appIconPath(concept, icon.etag), concept, width: APP_ICON_SIZE, height: APP_ICON_SIZE };
}

/** The fixed icon files of the installable site, all drawn from concept 1 (decision 11). */
export const SITE_ICONS = {
  "icon-192.png": { contentType: "image/png", render: () => renderAppIcon(1, 192) },
  "icon-512.png": { contentType: "image/png", render: () => renderAppIcon(1, 512) },
  "apple-touch-icon.png": { contentType: "image/png", render: () => renderAppIcon(1, 180) },
  "favicon-32.png": { contentType: "image/png", render: () => renderRoundedIcon(32) },
  "favicon.svg": {
    contentType: "image/svg+xml",
    render: () => cached("favicon.svg", async () => Buffer.from(appIconSvg(1, { rounded: true }))),
  },
} as const satisfies Record<string, { contentType: string; render: () => Promise<RenderedIcon> }>;

export type SiteIconName = keyof typeof SITE_ICONS;

export function isSiteIconName(name: string): name is SiteIconName {
  return Object.hasOwn(SITE_ICONS, name);
}
