import type { Kysely, Transaction } from "kysely";
import type { Database, DeckAudience } from "~/db/schema";
import { resolveSource } from "~/modules/analytics/sources.server";
import type { DeckBeat, ReadingSegment } from "./reading-rules";
import { alertLeadReading } from "./reading-alerts.server";
import { currentDeck } from "~/modules/deck/current-deck.server";

/** Who sent a request of beats, as the door knows them; the audience is decided per project (`readingAudience`). */
export type BeatSender = {
  viewerFingerprint: string | null;
  addressHash: (projectId: string) => string | null;
  audience: (projectId: string) => Promise<DeckAudience>;
};

/**
 * What became of one beat: recorded, or already recorded (the same view and sequence number), or refused: the
 * project is unknown, the deck is no longer the page's, a page past the deck's end, or a view id that is another
 * project's, deck's or viewer's. A refused beat changes nothing.
 */
export type BeatOutcome = "recorded" | "duplicate" | "unknown_project" | "replaced" | "no_such_page" | "not_this_view";

export type BeatRefusal = Exclude<BeatOutcome, "recorded" | "duplicate">;

export const isRefusal = (outcome: BeatOutcome): outcome is BeatRefusal => outcome !== "recorded" && outcome !== "duplicate";

export const BEAT_REFUSAL_STATUS: Record<BeatRefusal, number> = {
  unknown_project: 404,
  replaced: 409,
  no_such_page: 422,
  not_this_view: 409,
};

/**
 * Records a phone's beats (decision 99), each in its own transaction, in the order sent. A beat counts once per
 * (view, sequence number); its segments are clamped to the stretches of the view's clock no earlier beat covered,
 * so a beat sent twice, or a stretch sent in two beats, never counts twice, in whatever order they arrive.
 */
export async function recordDeckBeats(db: Kysely<Database>, beats: readonly DeckBeat[], sender: BeatSender, now = new Date()): Promise<BeatOutcome[]> {
  const outcomes: BeatOutcome[] = [];
  const decks = new Map<string, { deckId: string | null; pages: number } | null>();
  for (const beat of beats) {
    if (!decks.has(beat.project)) decks.set(beat.project, await currentDeck(db, beat.project));
    const deck = decks.get(beat.project)!;
    if (!deck) outcomes.push("unknown_project");
    else if (deck.deckId !== beat.deck) outcomes.push("replaced");
    else if (beat.segments.some(([page]) => page > deck.pages)) outcomes.push("no_such_page");
    else {
      const audience = await sender.audience(beat.project);
      outcomes.push(await db.transaction().execute((trx) => recordBeat(trx, beat, sender, audience, now)));
    }
  }
  return outcomes;
}

async function recordBeat(trx: Transaction<Database>, beat: DeckBeat, sender: BeatSender, audience: DeckAudience, now: Date): Promise<BeatOutcome> {
  const at = now.toISOString();
  const view = await openView(trx, beat, sender, audience, at);
  if (view === "not_this_view") return view;
  const span = beat.segments.length ? { from: beat.segments[0]![1], to: beat.segments[beat.segments.length - 1]![2] } : { from: beat.age, to: beat.age };
  const covered = beat.segments.length
    ? await trx
        .selectFrom("deck_beats")
        .select(["from_ms", "to_ms"])
        .where("view_id", "=", beat.view)
        .where("from_ms", "<", span.to)
        .where("to_ms", ">", span.from)
        .execute()
    : [];
  const inserted = await trx
    .insertInto("deck_beats")
    .values({ view_id: beat.view, seq: beat.seq, from_ms: span.from, to_ms: span.to })
    .onConflict((oc) => oc.columns(["view_id", "seq"]).doNothing())
    .returning("seq")
    .executeTakeFirst();
  if (!inserted) return "duplicate";

  const perPage = new Map<number, number>();
  for (const [page, from, to] of clampSegments(beat.segments, covered)) perPage.set(page, (perPage.get(page) ?? 0) + (to - from));
  let counted = 0;
  for (const [page, ms] of perPage) {
    if (ms <= 0) continue;
    counted += ms;
    await trx
      .insertInto("deck_view_pages")
      .values({ view_id: beat.view, page_number: page, ms })
      .onConflict((oc) => oc.columns(["view_id", "page_number"]).doUpdateSet((eb) => ({ ms: eb(eb.ref("deck_view_pages.ms"), "+", eb.ref("excluded.ms")) })))
      .execute();
  }
  await trx
    .updateTable("deck_views")
    .set((eb) => ({
      last_beat_at: at,
      ...(counted
        ? {
            ms: eb(eb.ref("ms"), "+", counted),
            pages: eb.selectFrom("deck_view_pages").select((inner) => inner.fn.countAll<number>().as("n")).where("view_id", "=", beat.view),
          }
        : {}),
    }))
    .where("id", "=", beat.view)
    .execute();
  if (view.created && view.leadId && audience === "reader") await alertLeadReading(trx, { viewId: beat.view, projectId: beat.project, leadId: view.leadId, at });
  return "recorded";
}

/**
 * The view a beat belongs to, opened by its first beat to arrive: bound to the sender's project, deck and viewer,
 * so a view id cannot be spent by another project's page or another browser.
 */
async function openView(
  trx: Transaction<Database>,
  beat: DeckBeat,
  sender: BeatSender,
  audience: DeckAudience,
  at: string,
): Promise<{ created: boolean; leadId: string | null } | "not_this_view"> {
  const existing = await trx.selectFrom("deck_views").select(["project_id", "deck_id", "viewer_fingerprint", "lead_id"]).where("id", "=", beat.view).executeTakeFirst();
  if (existing) {
    const same = existing.project_id === beat.project && existing.deck_id === beat.deck && existing.viewer_fingerprint === sender.viewerFingerprint;
    return same ? { created: false, leadId: existing.lead_id } : "not_this_view";
  }
  const addressHash = sender.addressHash(beat.project);
  const identity = { viewerFingerprint: sender.viewerFingerprint, addressHash, visitCode: beat.qr };
  const lead = sender.viewerFingerprint && audience === "reader"
    ? await trx.selectFrom("lead_viewers").select("lead_id").where("project_id", "=", beat.project).where("viewer_fingerprint", "=", sender.viewerFingerprint).executeTakeFirst()
    : undefined;
  const created = await trx
    .insertInto("deck_views")
    .values({
      id: beat.view,
      project_id: beat.project,
      deck_id: beat.deck,
      viewer_fingerprint: sender.viewerFingerprint,
      address_hash: addressHash,
      audience,
      source: await resolveSource(trx, beat.project, identity),
      lead_id: lead?.lead_id ?? null,
      started_at: at,
      last_beat_at: at,
      // The team's and bots' views never alert; a lead's alerts when it opens.
      summary_state: audience !== "reader" ? "none" : lead ? "lead" : null,
    })
    .onConflict((oc) => oc.column("id").doNothing())
    .returning("id")
    .executeTakeFirst();
  if (created) return { created: true, leadId: lead?.lead_id ?? null };
  // Another request opened it a moment ago: it is this beat's view only if it is the same viewer's.
  return openView(trx, beat, sender, audience, at);
}

/** The parts of `segments` that no stretch in `covered` holds, in order. */
export function clampSegments(segments: readonly ReadingSegment[], covered: readonly { from_ms: number; to_ms: number }[]): ReadingSegment[] {
  if (covered.length === 0) return [...segments];
  const taken = [...covered].sort((a, b) => a.from_ms - b.from_ms);
  const kept: ReadingSegment[] = [];
  for (const [page, from, to] of segments) {
    let start = from;
    for (const stretch of taken) {
      if (stretch.to_ms <= start || stretch.from_ms >= to) continue;
      if (stretch.from_ms > start) kept.push([page, start, stretch.from_ms]);
      start = Math.max(start, stretch.to_ms);
    }
    if (start < to) kept.push([page, start, to]);
  }
  return kept;
}
