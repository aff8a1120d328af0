import crypto from "node:crypto";
import { buffer } from "node:stream/consumers";
import { sql, type Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { RecurringPass } from "~/modules/jobs/recurring-pass.server";
import type { Logger } from "~/modules/logging/logger.server";
import type { ObjectStore } from "~/modules/storage/object-store.server";
import { deckImageType, deckPageKey, deckSourceKey } from "./deck-keys";
import { deckRefusalMessage } from "./deck-rules";
import { deleteDeckFiles, publishDeck, refuseDeck } from "./finish-deck.server";
import type { RenderMessage } from "./render-messages";
import { renderInWorker } from "./render-in-worker.server";

/**
 * How long a claim on a deck lasts without news: the renderer renews it every third of that while it draws (and
 * with every page), so a deck whose instance died is taken up by another pass within this time.
 */
export const DECK_LEASE_MS = 15_000;
/** A deck whose render was started this often without finishing (the worker crashed on it) is refused. */
export const DECK_MAX_ATTEMPTS = 3;

/** A render ended on purpose: the deck was replaced or removed meanwhile, or this instance lost its claim. */
class RenderGone extends Error {}

/**
 * The durable job that draws uploaded decks (decision 97): each pass claims the oldest deck waiting to be drawn,
 * with a lease, and draws it in a worker thread from the first page not yet stored, writing each page's images and
 * its progress as it goes; a deck whose claim ran out (its instance stopped or crashed) is taken up by the next pass
 * on any instance. When the last page is stored the deck becomes the project's; a refused deck changes nothing.
 */
export class DeckRenderer extends RecurringPass<number> {
  readonly #owner = `deck-renderer:${crypto.randomUUID()}`;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly store: ObjectStore,
    private readonly workerFile: URL,
    private readonly logger: Logger,
    private readonly options: { onPublished?: (projectId: string) => Promise<void>; clock?: () => Date } = {},
  ) {
    super();
  }

  protected passFailed(error: unknown): void {
    this.logger.error({ err: error }, "deck render pass failed");
  }

  protected async pass(stopping: AbortSignal): Promise<number> {
    let finished = 0;
    while (!stopping.aborted) {
      const deck = await this.#claimNext();
      if (!deck) break;
      if (deck.attempts > DECK_MAX_ATTEMPTS) {
        await refuseDeck(this.db, this.store, deck.id, "page_failed", deckRefusalMessage("page_failed", { page: deck.pages_done + 1 }));
        continue;
      }
      try {
        if (await this.#render(deck, stopping)) finished += 1;
      } catch (error) {
        if (error instanceof RenderGone) {
          await this.#dropIfGone(deck.id);
          continue;
        }
        if (stopping.aborted) break;
        this.logger.error({ err: error, deckId: deck.id }, "deck render failed; it is tried again when its claim runs out");
      }
    }
    return finished;
  }

  #now() {
    return this.options.clock?.() ?? new Date();
  }

  async #claimNext() {
    for (;;) {
      const now = this.#now().toISOString();
      const due = await this.db
        .selectFrom("decks")
        .select(["id", "project_id", "pages_done", "attempts"])
        .where("status", "=", "rendering")
        .where((eb) => eb.or([eb("claimed_until", "is", null), eb("claimed_until", "<", now)]))
        .orderBy("created_at")
        .orderBy("id")
        .limit(1)
        .executeTakeFirst();
      if (!due) return null;
      const claimed = await this.db
        .updateTable("decks")
        .set({ claimed_by: this.#owner, claimed_until: this.#leaseEnd(), attempts: sql<number>`attempts + 1` })
        .where("id", "=", due.id)
        .where("status", "=", "rendering")
        .where((eb) => eb.or([eb("claimed_until", "is", null), eb("claimed_until", "<", now)]))
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 1) return { ...due, attempts: due.attempts + 1 };
    }
  }

  /** A deck replaced or removed while it was drawn leaves no files behind. */
  async #dropIfGone(deckId: string) {
    const row = await this.db.selectFrom("decks").select("status").where("id", "=", deckId).executeTakeFirst();
    if (!row || row.status === "replaced" || row.status === "removed") await deleteDeckFiles(this.store, deckId);
  }

  #leaseEnd() {
    return new Date(this.#now().getTime() + DECK_LEASE_MS).toISOString();
  }

  /** Renews the claim and records progress; a deck no longer ours (replaced, removed, claim lost) ends the render. */
  async #progress(deckId: string, set: { page_count?: number; pages_done?: number }) {
    const updated = await this.db
      .updateTable("decks")
      .set({ ...set, claimed_until: this.#leaseEnd() })
      .where("id", "=", deckId)
      .where("claimed_by", "=", this.#owner)
      .where("status", "=", "rendering")
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw new RenderGone();
  }

  async #render(deck: { id: string; project_id: string; pages_done: number }, stopping: AbortSignal): Promise<boolean> {
    const source = await this.store.get(deckSourceKey(deck.id));
    if (!source) {
      await refuseDeck(this.db, this.store, deck.id, "damaged", deckRefusalMessage("damaged"));
      return false;
    }
    const bytes = await buffer(source.body);
    const pdf = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    let published = false;
    const stop = new AbortController();
    const onStopping = () => stop.abort();
    stopping.addEventListener("abort", onStopping, { once: true });
    // A page of large images can take seconds: the claim is renewed meanwhile, and a lost one stops the worker.
    const heartbeat = setInterval(() => {
      this.#progress(deck.id, {}).catch(() => stop.abort());
    }, DECK_LEASE_MS / 3);
    try {
      await renderInWorker(
        this.workerFile,
        { pdf, fromPage: deck.pages_done + 1 },
        async (message: RenderMessage) => {
          switch (message.type) {
            case "opened":
              return this.#progress(deck.id, { page_count: message.pageCount });
            case "page":
              for (const image of message.images) {
                await this.store.put(deckPageKey(deck.id, message.page, image.width, image.format), Buffer.from(image.bytes), deckImageType(image.format));
              }
              await this.db
                .insertInto("deck_pages")
                .values({ deck_id: deck.id, page_number: message.page, width: message.width, height: message.height, text: message.text })
                .onConflict((oc) => oc.columns(["deck_id", "page_number"]).doNothing())
                .execute();
              return this.#progress(deck.id, { pages_done: message.page });
            case "done":
              published = await publishDeck(this.db, this.store, deck.id, this.#owner, this.#now());
              if (published) await this.options.onPublished?.(deck.project_id);
              return;
            case "refused":
              return refuseDeck(this.db, this.store, deck.id, message.reason, deckRefusalMessage(message.reason, { page: message.page }));
            case "failed":
              throw new Error(`deck render failed: ${message.message}`);
          }
        },
        stop.signal,
      );
    } catch (error) {
      if (error instanceof RenderGone) stop.abort();
      throw error;
    } finally {
      clearInterval(heartbeat);
      stopping.removeEventListener("abort", onStopping);
    }
    return published;
  }
}
