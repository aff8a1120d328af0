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

export const WORKSPACE_MANIFEST_PATH = "/project/manifest.webmanifest";
export const WORKSPACE_NAME = `${PRODUCT_NAME} Leads`;

/**
 * The founder's workspace as an app of its own (decision 56): it opens on the founder's projects, and a push's
 * tap opens a lead inside it. iOS shows pushes only for a site added to the home screen.
 */
export function workspaceManifest(): WebManifest {
  return {
    ...siteManifest(),
    id: "/my-projects",
    name: WORKSPACE_NAME,
    short_name: shortName(WORKSPACE_NAME),
    description: "Your projects and their leads, with a notification the moment someone asks for an intro.",
    start_url: "/my-projects",
  };
}

/** What the founder's pages offer to a home screen: the workspace (`handle.install` of those routes). */
export const WORKSPACE_INSTALL: InstallTarget = { manifest: WORKSPACE_MANIFEST_PATH, name: WORKSPACE_NAME };

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
