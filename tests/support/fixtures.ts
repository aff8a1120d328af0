import type { Kysely } from "kysely";
import type { Database, ProjectStatus } from "~/db/schema";
import { createUnsubscribeTokens } from "~/modules/contacts/unsubscribe-token.server";
import { createLogger } from "~/modules/logging/logger.server";
import { createMailLinks } from "~/modules/mail/mail-links.server";
import type { ProjectEvent } from "~/modules/realtime/project-events.server";
import { createProject as createProjectThroughForm } from "~/modules/projects/founder-projects.server";
import { projectFormSchema } from "~/modules/projects/project-form";

/**
 * `minutes` before now. Tests that read rows back in the order they were made give each its own minute through the
 * domain function's clock, so two made in one millisecond never tie.
 */
export const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

/** A visitor's action dated `at` (as a form kept offline and sent later is), or now when no time is given. */
export const sentAt = (at?: Date) => (at ? { sent: { at } } : {});

/**
 * A user row, as better-auth would create it, with its address confirmed through the link mailed at sign-up (decision
 * 83: only a confirmed address gets alerts and reports) unless `confirmed: false`.
 */
export async function createUser(db: Kysely<Database>, overrides: { email?: string; confirmed?: boolean } = {}) {
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  await db
    .insertInto("users")
    .values({ id, name: "Founder", email: overrides.email ?? `${id}@example.com`, email_verified: overrides.confirmed ?? true, image: null, created_at: now, updated_at: now })
    .execute();
  return id;
}

/**
 * A project with two signal tiers (Angel $5k–$25k, Lead $1M+), owned by a new user unless one is given, made by the
 * project form's own `createProject` with the form's schema: its slug claimed, its tiers and counters made as the
 * founder's form makes them (decision 72).
 */
export async function createProject(
  db: Kysely<Database>,
  overrides: { ownerId?: string; status?: ProjectStatus; slug?: string; title?: string } = {},
) {
  const ownerId = overrides.ownerId ?? (await createUser(db));
  const input = projectFormSchema.parse({
    title: overrides.title ?? "Harbor Cold Chain",
    slug: overrides.slug ?? `project-${crypto.randomUUID().slice(0, 8)}`,
    oneLiner: "Solar vaccine fridges",
    summary: "",
    videoUrl: "",
    deckUrl: "",
    calendlyUrl: "",
    status: overrides.status ?? "published",
    metrics: [],
    problemPoints: [],
    solutionPoints: [],
    tiers: [
      { rangeLabel: "Angel", rangeMin: 5_000, rangeMax: 25_000, perks: ["Updates"] },
      { rangeLabel: "Lead", rangeMin: 1_000_000, rangeMax: null, perks: ["Updates"] },
    ],
  });
  const { id, slug } = await createProjectThroughForm(db, ownerId, input);
  const tiers = await db
    .selectFrom("signal_tiers")
    .select(["id", "range_label", "range_min", "range_max", "sort_order"])
    .where("project_id", "=", id)
    .orderBy("sort_order")
    .execute();
  return { id, slug, ownerId, tiers };
}

/**
 * A project and its two tiers written as rows, for a database migrated only part of the way (`upTo`), where today's
 * `createProject` would write tables and columns that do not exist yet. Everywhere else, use `createProject`.
 */
export async function insertProjectRows(db: Kysely<Database>, overrides: { ownerId?: string } = {}) {
  const ownerId = overrides.ownerId ?? (await createUser(db));
  const id = crypto.randomUUID();
  const slug = `project-${id.slice(0, 8)}`;
  await db
    .insertInto("projects")
    .values({
      id,
      owner_id: ownerId,
      title: "Harbor Cold Chain",
      slug,
      one_liner: "Solar vaccine fridges",
      summary: null,
      video_url: null,
      deck_url: null,
      calendly_url: null,
      metrics: [],
      problem_points: [],
      solution_points: [],
      status: "published",
      last_shipped_at: null,
    })
    .execute();
  const tiers = [
    { id: crypto.randomUUID(), range_label: "Angel", range_min: 5_000, range_max: 25_000, sort_order: 0 },
    { id: crypto.randomUUID(), range_label: "Lead", range_min: 1_000_000, range_max: null, sort_order: 1 },
  ];
  await db
    .insertInto("signal_tiers")
    .values(tiers.map((tier) => ({ ...tier, project_id: id, perks: ["Updates"] })))
    .execute();
  return { id, slug, ownerId, tiers };
}

export const TEST_PUBLIC_URL = "https://pitch.example";
export const TEST_SECRET = "test-secret-for-unsubscribe-tokens-0123456789";

/** The links e-mails carry, signed with a fixed test secret. */
export const testTokens = createUnsubscribeTokens(TEST_SECRET);
export const testMailLinks = createMailLinks(TEST_PUBLIC_URL, testTokens);

/** A domain function's database, events and logger, the events it publishes kept in `published` to be read back. */
export function withEvents(db: Kysely<Database>) {
  const published: ProjectEvent[] = [];
  return { deps: { db, events: { publish: async (event: ProjectEvent) => void published.push(event) }, logger: createLogger("silent") }, published };
}
