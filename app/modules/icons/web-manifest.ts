import { PRODUCT_NAME } from "~/product";

/** The installable site (decision 11): the web app manifest of the product and of each published pitch page. */

export const THEME_COLOR = "#4f46e5";
export const BACKGROUND_COLOR = "#ffffff";
export const SITE_MANIFEST_PATH = "/manifest.webmanifest";

/** What a page offers to a home screen: its manifest and the name iOS shows under the icon. */
export type InstallTarget = { manifest: string; name: string };

export type WebManifest = {
  id: string;
  name: string;
  short_name: string;
  description: string;
  start_url: string;
  scope: string;
  display: "standalone";
  background_color: string;
  theme_color: string;
  icons: { src: string; sizes: string; type: string; purpose: "any" | "maskable" }[];
};

/** Icons drawn from concept 1: full-bleed squares whose glyph sits inside the maskable safe zone. */
const ICONS: WebManifest["icons"] = [
  { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
  { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
  { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "maskable" },
  { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
];

export function siteManifest(): WebManifest {
  return {
    id: "/",
    name: PRODUCT_NAME,
    short_name: PRODUCT_NAME,
    description: "QR-first pitch pages for founders: turn every scan at your booth into a meeting, an intro or a signal of interest.",
    start_url: "/",
    scope: "/",
    display: "standalone",
    background_color: BACKGROUND_COLOR,
    theme_color: THEME_COLOR,
    icons: ICONS,
  };
}

/** A home-screen label: the whole title when short, else its first words (or its start) within 12 characters. */
export function shortName(title: string, max = 12): string {
  const clean = title.trim().replace(/\s+/g, " ");
  if (clean.length <= max) return clean;
  let name = "";
  for (const word of clean.split(" ")) {
    const next = name ? `${name} ${word}` : word;
    if (next.length > max) break;
    name = next;
  }
  return name || clean.slice(0, max).trimEnd();
}

export function pitchManifestPath(slug: string): string {
  return `/pitch/${encodeURIComponent(slug)}/manifest.webmanifest`;
}

/** A pitch page added to the home screen opens that page, under the project's title. */
export function pitchManifest(project: { slug: string; title: string; oneLiner: string }): WebManifest {
  const path = `/pitch/${encodeURIComponent(project.slug)}`;
  return {
    ...siteManifest(),
    id: path,
    name: project.title,
    short_name: shortName(project.title),
    description: project.oneLiner,
    start_url: path,
    scope: path,
  };
}
