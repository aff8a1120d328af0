import { z } from "zod/mini";
import { optionalHttpUrl, optionalText, requiredText, text } from "~/modules/forms/fields";

/**
 * The project form (create and edit). The browser and the server run
 * this schema; lists arrive from the form as JSON in hidden fields (`metrics`, `problemPoints`, …).
 */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SLUG_MESSAGE = "Use lowercase letters, numbers and single hyphens (for example my-startup)";
export const SLUG_TAKEN_MESSAGE = "This URL slug is already taken. Choose another one.";
export const LIMITS = { title: 120, slug: 80, oneLiner: 200, summary: 5000, metrics: 12, points: 10, pointLength: 300, tiers: 8, perks: 6 } as const;

/**
 * Lowercase, runs of non-alphanumerics become one hyphen, leading and trailing hyphens trimmed. Accents are dropped first, so "Café" gives "cafe" rather than "caf".
 */
export function deriveSlug(title: string): string {
  return title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, LIMITS.slug)
    .replace(/-+$/g, "");
}


const amount = z.number("Enter an amount in dollars").check(z.int("Enter a whole number of dollars"), z.gte(0, "Amounts cannot be negative"), z.lte(1_000_000_000_000, "That amount is too large"));

export const tierSchema = z
  .object({
    id: z.optional(z.string().check(z.maxLength(64))),
    rangeLabel: requiredText(60, "Tier label must be less than 60 characters"),
    rangeMin: amount,
    rangeMax: z.nullable(amount),
    perks: z.array(text(120, "Perks must be less than 120 characters")).check(z.maxLength(LIMITS.perks, `At most ${LIMITS.perks} perks per tier`)),
  })
  .check(
    z.refine((tier) => tier.rangeMax === null || tier.rangeMax >= tier.rangeMin, {
      message: "The maximum must be at least the minimum",
      path: ["rangeMax"],
    }),
  );

export const projectFormSchema = z.object({
  title: requiredText(LIMITS.title, `Title must be less than ${LIMITS.title} characters`),
  slug: requiredText(LIMITS.slug, `Slug must be less than ${LIMITS.slug} characters`).check(z.regex(SLUG_PATTERN, SLUG_MESSAGE)),
  oneLiner: requiredText(LIMITS.oneLiner, `One-liner must be less than ${LIMITS.oneLiner} characters`),
  summary: optionalText(LIMITS.summary, `Summary must be less than ${LIMITS.summary} characters`),
  videoUrl: optionalHttpUrl("Enter a valid video URL (starting with https://)"),
  deckUrl: optionalHttpUrl("Enter a valid deck URL (starting with https://)"),
  calendlyUrl: optionalHttpUrl("Enter a valid booking URL (starting with https://)"),
  status: z.enum(["draft", "published"], "Choose Draft or Published"),
  metrics: z
    .array(z.object({ label: text(40, "Metric labels must be less than 40 characters"), value: text(40, "Metric values must be less than 40 characters") }))
    .check(z.maxLength(LIMITS.metrics, `At most ${LIMITS.metrics} metrics`)),
  problemPoints: z.array(text(LIMITS.pointLength, `Points must be less than ${LIMITS.pointLength} characters`)).check(z.maxLength(LIMITS.points, `At most ${LIMITS.points} problem points`)),
  solutionPoints: z.array(text(LIMITS.pointLength, `Points must be less than ${LIMITS.pointLength} characters`)).check(z.maxLength(LIMITS.points, `At most ${LIMITS.points} solution points`)),
  tiers: z.array(tierSchema).check(z.maxLength(LIMITS.tiers, `At most ${LIMITS.tiers} tiers`)),
});

export type ProjectFormInput = z.infer<typeof projectFormSchema>;

/** How the create and edit actions read and check the project form (their `save` intent adds the domain call). */
export const PROJECT_FORM_INTENT = { schema: projectFormSchema, read: readProjectForm, failureMessage: "Failed to save project" };
export type TierInput = z.infer<typeof tierSchema>;

/** Tiers a new project starts with; the founder edits them on the form. */
export const DEFAULT_TIERS: TierInput[] = [
  { rangeLabel: "Angel", rangeMin: 5_000, rangeMax: 25_000, perks: ["Quarterly investor update"] },
  { rangeLabel: "Syndicate", rangeMin: 25_000, rangeMax: 100_000, perks: ["Monthly update call"] },
  { rangeLabel: "Lead", rangeMin: 250_000, rangeMax: null, perks: ["Board observer seat"] },
];

/** Reads the submitted form into the schema's input shape: JSON lists in hidden fields; blank rows dropped. */
export function readProjectForm(form: FormData): Record<string, unknown> {
  const json = (name: string): unknown => {
    const raw = form.get(name);
    if (typeof raw !== "string" || raw === "") return [];
    try {
      return JSON.parse(raw);
    } catch {
      return null;
    }
  };
  const strings = (value: unknown) => (Array.isArray(value) ? value.filter((item) => typeof item !== "string" || item.trim() !== "") : value);
  const metrics = json("metrics");
  return {
    title: form.get("title") ?? "",
    slug: form.get("slug") ?? "",
    oneLiner: form.get("oneLiner") ?? "",
    summary: form.get("summary") ?? "",
    videoUrl: form.get("videoUrl") ?? "",
    deckUrl: form.get("deckUrl") ?? "",
    calendlyUrl: form.get("calendlyUrl") ?? "",
    status: form.get("status") ?? "draft",
    metrics: Array.isArray(metrics)
      ? metrics.filter((row: { label?: unknown; value?: unknown }) => String(row?.label ?? "").trim() || String(row?.value ?? "").trim())
      : metrics,
    problemPoints: strings(json("problemPoints")),
    solutionPoints: strings(json("solutionPoints")),
    tiers: json("tiers"),
  };
}
