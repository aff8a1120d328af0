import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { findProjectAccess } from "~/modules/access/project-access.server";
import { DomainError } from "~/modules/errors.server";
import type { ObjectStore, StoredObject } from "~/modules/storage/object-store.server";
import { deckPageKey, deckSourceKey, parseDeckFile } from "./deck-keys";
import { DECK_FALLBACK_WIDTH, DECK_PAGE_WIDTHS, type DeckPageWidth } from "./deck-rules";

/** A file of a deck as it is answered: the stored object, how long it may be kept and by whom, its validator. */
export type DeckFile = {
  object: StoredObject;
  /** Public and immutable for a published project's page images; stored nowhere for a draft's, or for the PDF. */
  cacheControl: string;
  etag: string;
  /** The PDF is a download, named as the founder uploaded it. */
  downloadName: string | null;
};

const NOT_FOUND = "Not found";
/** Deck ids are lower-case UUIDs, as storage keys are lower case. */
const DECK_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PUBLIC_FOREVER = "public, max-age=31536000, immutable";
const TEAM_ONLY = "private, no-store";

/**
 * A deck's page image (or its PDF, when the founder lets visitors download it), for anyone when its project is
 * published and it is the deck the page shows or a page of it; for the project's team when it is a draft. Any
 * other name, deck or viewer is answered 404, the same for a file that does not exist as for one not theirs.
 */
export async function openDeckFile(
  db: Kysely<Database>,
  store: ObjectStore,
  /** The signed-in viewer, asked only for a draft's deck. */
  viewer: () => Promise<string | null>,
  deckId: string,
  file: string,
): Promise<DeckFile> {
  const wanted = parseDeckFile(file);
  if (!DECK_ID.test(deckId) || !wanted) throw new DomainError("not_found", NOT_FOUND);
  if (wanted.kind === "page" && !isStoredWidth(wanted.width, wanted.format)) throw new DomainError("not_found", NOT_FOUND);
  const deck = await db
    .selectFrom("decks")
    .innerJoin("projects", "projects.id", "decks.project_id")
    .select(["decks.status", "decks.file_name", "projects.id as project_id", "projects.status as project_status", "projects.deck_id", "projects.deck_download"])
    .where("decks.id", "=", deckId)
    .executeTakeFirst();
  if (!deck || deck.status !== "ready") throw new DomainError("not_found", NOT_FOUND);
  const published = deck.project_status === "published";
  if (!published) {
    const viewerId = await viewer();
    if (!viewerId || !(await findProjectAccess(db, viewerId, deck.project_id))) throw new DomainError("not_found", NOT_FOUND);
  }
  if (wanted.kind === "source" && !(deck.deck_id === deckId && deck.deck_download)) throw new DomainError("not_found", NOT_FOUND);

  const key = wanted.kind === "source" ? deckSourceKey(deckId) : deckPageKey(deckId, wanted.page, wanted.width as DeckPageWidth, wanted.format);
  const object = await store.get(key);
  if (!object) throw new DomainError("not_found", NOT_FOUND);
  return {
    object,
    // The founder may withdraw the PDF at any time: it is never kept as the images are.
    cacheControl: wanted.kind === "page" && published ? PUBLIC_FOREVER : TEAM_ONLY,
    etag: `"${deckId}-${file}-${object.size}"`,
    downloadName: wanted.kind === "source" ? deck.file_name : null,
  };
}

function isStoredWidth(width: number, format: "webp" | "jpg"): boolean {
  return format === "jpg" ? width === DECK_FALLBACK_WIDTH : (DECK_PAGE_WIDTHS as readonly number[]).includes(width);
}
