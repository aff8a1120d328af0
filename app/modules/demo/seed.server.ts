import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { addWallEntry } from "~/modules/recognition/wall.server";
import { DEMO_CONTENT } from "./demo-content";

export const DEMO_SLUG = "demo-project";
const DEMO_OWNER_ID = "demo-owner";

const minutesAgo = (now: Date, minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();

/**
 * Creates the demo pitch (SPEC: Home's 'View Demo') once. Running it again changes nothing, also when
 * two instances start together: every insert yields to a row that is already there.
 */
export async function seedDemoProject(db: Kysely<Database>, now = new Date()): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom("projects").select("id").where("slug", "=", DEMO_SLUG).executeTakeFirst();
    if (existing) return false;

    await trx
      .insertInto("users")
      .values({
        id: DEMO_OWNER_ID,
        name: "Demo Founder",
        email: "demo-founder@pitchqr.invalid",
        email_verified: false,
        image: null,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      })
      .onConflict((oc) => oc.column("id").doNothing())
      .execute();

    const projectId = crypto.randomUUID();
    const inserted = await trx
      .insertInto("projects")
      .values({
        id: projectId,
        owner_id: DEMO_OWNER_ID,
        title: DEMO_CONTENT.title,
        slug: DEMO_SLUG,
        one_liner: DEMO_CONTENT.oneLiner,
        summary: DEMO_CONTENT.summary,
        video_url: null,
        deck_url: null,
        calendly_url: null,
        metrics: DEMO_CONTENT.metrics.map((metric) => ({ ...metric })),
        problem_points: [...DEMO_CONTENT.problems],
        solution_points: [...DEMO_CONTENT.solutions],
        status: "published",
        last_shipped_at: minutesAgo(now, 60 * 26),
        created_at: minutesAgo(now, 60 * 24 * 30),
        updated_at: now.toISOString(),
      })
      .onConflict((oc) => oc.column("slug").doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
    await trx
      .insertInto("project_slugs")
      .values({ slug: DEMO_SLUG, project_id: projectId, created_at: now.toISOString() })
      .onConflict((oc) => oc.column("slug").doNothing())
      .execute();

    const tiers = DEMO_CONTENT.tiers.map((tier) => ({ ...tier, perks: [...tier.perks] }));
    await trx
      .insertInto("signal_tiers")
      .values(tiers.map((tier, index) => ({ id: crypto.randomUUID(), project_id: projectId, sort_order: index, ...tier })))
      .execute();

    // The update behind 'Last shipped', marked as already mailed: a visitor who follows the demo gets no digest of it.
    await trx
      .insertInto("project_updates")
      .values({
        id: crypto.randomUUID(),
        project_id: projectId,
        body: "SMS temperature alerts now reach the nurse on duty within 60 seconds, in Swahili and English.",
        created_at: minutesAgo(now, 60 * 26),
        digest_slot: "demo-seed",
      })
      .execute();

    // Oldest first, so entry numbers grow with time as they do for live entries.
    const wall = [
      { type: "Supporter" as const, display_name: "Priya Raman", role_tags: ["Founder", "Angel"], message: null, minutes: 60 * 24 * 3 },
      { type: "Pilot" as const, display_name: "St. Luke's Rural Clinic", role_tags: [], message: "Running three fridges since March.", minutes: 60 * 30 },
      { type: "Intro" as const, display_name: "Diego Hernández", role_tags: ["Operator"], message: "Happy to intro to two district health officers.", minutes: 180 },
      { type: "Supporter" as const, display_name: "Amara Okafor", role_tags: ["Angel"], message: "Saw the pilot numbers in Kisumu. In.", minutes: 25 },
    ];
    for (const entry of wall) {
      await addWallEntry(trx, {
        projectId,
        type: entry.type,
        displayName: entry.display_name,
        roleTags: entry.role_tags,
        message: entry.message,
        createdAt: minutesAgo(now, entry.minutes),
      });
    }
    return true;
  });
}
