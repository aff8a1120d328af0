import type { Kysely } from "kysely";
import type { Database, Metric } from "~/db/schema";
import { SLUG_PATTERN } from "~/modules/projects/project-form";
import { findViewableProjectBySlug } from "~/modules/projects/projects.server";
import { findProjectByFormerSlug } from "~/modules/projects/slug-history.server";
import type { QualifyingQuestion } from "~/modules/leads/inbox/qualifying-answer";
import { questionOf } from "~/modules/leads/inbox/qualifying-question.server";
import { readWall, type PublicWallEntry } from "~/modules/recognition/wall.server";
import { readPitchDeck, type PitchDeck } from "~/modules/deck/pitch-deck.server";

export type PublicTier = { id: string; rangeLabel: string; rangeMin: number; rangeMax: number | null; perks: string[] };

/** Everything the public pitch page shows, and nothing it must not (no owner id, no contact data). */
export type PitchPage = {
  project: {
    id: string;
    slug: string;
    title: string;
    oneLiner: string;
    summary: string | null;
    videoUrl: string | null;
    deckUrl: string | null;
    /** The uploaded deck, read in place; null: none (the deck URL, if any, is linked instead). */
    deck: PitchDeck | null;
    calendlyUrl: string | null;
    metrics: Metric[];
    problemPoints: string[];
    solutionPoints: string[];
    isDraft: boolean;
    lastShippedAt: string | null;
  };
  tiers: PublicTier[];
  /** The founder's qualifying question, asked on the intro and signal forms; null: none. */
  question: QualifyingQuestion | null;
  wall: { entries: PublicWallEntry[]; hiddenSupporters: number };
  stats: { signals: number };
  /** The founder's newest 'what shipped' update (decision 65); null: none yet. Posting one bumps the page's version. */
  latestUpdate: { body: string; createdAt: string } | null;
  contentVersion: number;
};

export async function loadPitchPage(db: Kysely<Database>, slug: string, viewerId: string | null): Promise<PitchPage | null> {
  const project = await findViewableProjectBySlug(db, slug, viewerId);
  if (!project) return null;
  const [tiers, wall, signals, latestUpdate, deck] = await Promise.all([
    db.selectFrom("signal_tiers").selectAll().where("project_id", "=", project.id).orderBy("sort_order").orderBy("id").execute(),
    readWall(db, project.id),
    db
      .selectFrom("signals")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("project_id", "=", project.id)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("project_updates")
      .select(["body", "created_at"])
      .where("project_id", "=", project.id)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst(),
    readPitchDeck(db, project),
  ]);
  return {
    project: {
      id: project.id,
      slug: project.slug,
      title: project.title,
      oneLiner: project.one_liner,
      summary: project.summary,
      videoUrl: project.video_url,
      deckUrl: project.deck_url,
      deck,
      calendlyUrl: project.calendly_url,
      metrics: project.metrics,
      problemPoints: project.problem_points,
      solutionPoints: project.solution_points,
      isDraft: project.status !== "published",
      lastShippedAt: project.last_shipped_at,
    },
    tiers: tiers.map((tier) => ({
      id: tier.id,
      rangeLabel: tier.range_label,
      rangeMin: Number(tier.range_min),
      rangeMax: tier.range_max === null ? null : Number(tier.range_max),
      perks: tier.perks,
    })),
    question: questionOf(project),
    wall,
    stats: { signals: Number(signals.count) },
    latestUpdate: latestUpdate ? { body: latestUpdate.body, createdAt: latestUpdate.created_at } : null,
    contentVersion: project.content_version,
  };
}

/** The page cache's validator: one indexed lookup, so every write shows on the next request, on any instance. */
/** What the page cache and the scan door need to know of a pitch, in one indexed lookup by slug. */
export type PitchRevision = { projectId: string; ownerId: string; version: number; published: boolean };

export async function readPitchRevision(db: Kysely<Database>, slug: string): Promise<PitchRevision | null> {
  if (!SLUG_PATTERN.test(slug)) return null;
  const row = await db
    .selectFrom("projects")
    .select(["id", "owner_id", "content_version", "status"])
    .where("slug", "=", slug)
    .executeTakeFirst();
  return row ? { projectId: row.id, ownerId: row.owner_id, version: row.content_version, published: row.status === "published" } : null;
}

/** What a published pitch's web app manifest names (decision 11); drafts and unknown slugs have none. */
export async function readPublishedPitchSummary(db: Kysely<Database>, slug: string): Promise<{ slug: string; title: string; oneLiner: string } | null> {
  if (!SLUG_PATTERN.test(slug)) return null;
  const published = (at: string) => db.selectFrom("projects").select(["slug", "title", "one_liner"]).where("slug", "=", at).where("status", "=", "published").executeTakeFirst();
  // A slug the project had before (decision 63) names the project as it is now: its start URL is the current address.
  const row = (await published(slug)) ?? (await findProjectByFormerSlug(db, slug).then((moved) => (moved ? published(moved.slug) : undefined)));
  return row ? { slug: row.slug, title: row.title, oneLiner: row.one_liner } : null;
}
