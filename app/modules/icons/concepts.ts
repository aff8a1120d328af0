import { z } from "zod/mini";

/** The app icon generator's three concepts, 1024x1024, solid background. */
export const APP_ICON_CONCEPTS = [
  {
    concept: 1,
    name: "Minimalist QR Gradient",
    description: "Three rounded finder marks and a few modules in white on an indigo-to-violet gradient. The product's own icon.",
  },
  {
    concept: 2,
    name: "QR + Growth Symbol",
    description: "Finder marks beside rising bars and an upward arrow on teal: scans that turn into traction.",
  },
  {
    concept: 3,
    name: "QR + Connection",
    description: "Finder marks linked to a small network of nodes on a sky-to-indigo gradient: a scan that becomes an intro.",
  },
] as const;

export type AppIconConcept = (typeof APP_ICON_CONCEPTS)[number]["concept"];

export const APP_ICON_SIZE = 1024;

export const CONCEPT_MESSAGE = "concept must be 1, 2 or 3";

/** The body of `POST /api/functions/generate-app-icon`: `{concept: 1 to 3}`. */
export const generateAppIconSchema = z.object({
  concept: z.literal([1, 2, 3], CONCEPT_MESSAGE),
});

/** The download's file name: `icon-concept-{n}.png`. */
export function appIconDownloadName(concept: AppIconConcept): string {
  return `icon-concept-${concept}.png`;
}

export function isAppIconConcept(value: unknown): value is AppIconConcept {
  return value === 1 || value === 2 || value === 3;
}
