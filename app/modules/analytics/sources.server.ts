import { isRecordId } from "~/modules/http/id-shape";
import { sql, type Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { addToProjectStats } from "./project-stats.server";
import { codeName, codeNamesOf, DELETED_CODE, DIRECT_EVENT, DIRECT_SOURCE_NAME, UNKNOWN_SOURCE_NAME, type SourceName } from "./source-names";

/**
 * Where a visitor came from (decision 16): `qr:{code id}`, `direct` for the plain link, or `unknown` when the
 * action cannot be tied to a page load (a client that never loaded the page, or data older than attribution).
 * Every scan and every action adds to exact per-source counters in the transaction that records it.
 */
export const DIRECT = "direct";
export const UNKNOWN = "unknown";
/** The `source_people` and `source_stats` key that counts people across all sources. */
export const ALL_SOURCES = "*";

export function scanSource(qrCodeId: string | null): string {
  return qrCodeId ? `qr:${qrCodeId}` : DIRECT;
}

/**
 * A person's source (their contact's and their lead's, set on insert) on a later action: it stays their first
 * action's, unless that one was `unknown` (decision 54). For the `set` of an update of either table.
 */
export function firstKnownSource(table: "contacts" | "leads", source: string) {
  const current = sql.ref(`${table}.source`);
  return sql<string>`case when ${current} = ${UNKNOWN} then ${source} else ${current} end`;
}

/** The QR code id of a `qr:` source, else null. */
export function qrCodeIdOfSource(source: string): string | null {
  return source.startsWith("qr:") ? source.slice(3) : null;
}

/** Who is acting, as the page door knows them: the viewer cookie's fingerprint, else the daily address hash. */
export type VisitorIdentity = {
  viewerFingerprint: string | null;
  addressHash: string | null;
  /** The `?qr=` code of the page a form was sent from, as the page posted it: the visit it belongs to. */
  visitCode?: string | null;
};

/**
 * The source of the visitor's latest page load of this project: a viewer seen by the door has one; a visitor
 * the door never saw is `unknown`. A visitor without a cookie is found by address hash only among viewers whose
 * cookie never came back (decision 52), and only when those agree on the source: identical phones behind one
 * address that came through different codes cannot be told apart, so that action is `unknown`, not someone else's.
 */
export async function resolveSource(db: Kysely<Database>, projectId: string, identity: VisitorIdentity | undefined): Promise<string> {
  // The page the form came from names its code (a browser that keeps no cookie keeps `?qr=` in its address): that
  // visit's code, when it is one of this project's.
  if (identity?.visitCode && isRecordId(identity.visitCode)) {
    const code = await db.selectFrom("qr_codes").select("id").where("id", "=", identity.visitCode).where("project_id", "=", projectId).executeTakeFirst();
    if (code) return scanSource(code.id);
  }
  if (identity?.viewerFingerprint) {
    const viewer = await db
      .selectFrom("project_viewers")
      .select("last_source")
      .where("project_id", "=", projectId)
      .where("viewer_fingerprint", "=", identity.viewerFingerprint)
      .executeTakeFirst();
    return viewer?.last_source ?? UNKNOWN;
  }
  if (!identity?.addressHash) return UNKNOWN;
  const sources = await db
    .selectFrom("project_viewers")
    .select("last_source")
    .distinct()
    .where("project_id", "=", projectId)
    .where("address_hash", "=", identity.addressHash)
    .limit(2)
    .execute();
  return sources.length === 1 ? (sources[0]!.last_source ?? UNKNOWN) : UNKNOWN;
}

/**
 * The name of a source at the moment of an action, for what is written or sent then (a signal's event source, an
 * alert, a webhook): the QR code's name (`codeName`), `Direct link` for the plain link, or null when not attributed.
 */
export async function leadEventOf(db: Kysely<Database>, projectId: string, source: string): Promise<string | null> {
  if (source === DIRECT) return DIRECT_EVENT;
  const qrCodeId = qrCodeIdOfSource(source);
  if (!qrCodeId) return null;
  const code = await db.selectFrom("qr_codes").select(["label", "event_tag"]).where("id", "=", qrCodeId).where("project_id", "=", projectId).executeTakeFirst();
  return code ? codeName(code.label, code.event_tag) : null;
}

/** The project's QR codes by id, each with its name (`codeName`), for naming the sources of a list at read time. */
export async function readCodeNames(db: Kysely<Database>, projectId: string): Promise<Map<string, string>> {
  const [codes, moved] = await Promise.all([
    db.selectFrom("qr_codes").select(["id", "label", "event_tag"]).where("project_id", "=", projectId).orderBy("created_at").orderBy("id").execute(),
    readCodesMovedAway(db, projectId),
  ]);
  return codeNamesOf([...moved, ...codes]);
}

/**
 * Codes re-pointed from this project to another (decision 64): the scans and actions they brought here stay here,
 * named by the code's current name rather than as a deleted code.
 */
export async function readCodesMovedAway(db: Kysely<Database>, projectId: string): Promise<{ id: string; label: string; event_tag: string | null }[]> {
  return db
    .selectFrom("qr_codes")
    .select(["id", "label", "event_tag"])
    .where("project_id", "!=", projectId)
    .where("id", "in", db.selectFrom("qr_code_moves").select("qr_code_id").where("from_project_id", "=", projectId))
    .orderBy("created_at")
    .orderBy("id")
    .execute();
}

/** A source as the inbox, the CSV and the funnel name it (decision 54), from the project's current code names. */
export function nameSource(source: string, codeNames: ReadonlyMap<string, string>): SourceName {
  if (source === DIRECT) return DIRECT_SOURCE_NAME;
  const qrCodeId = qrCodeIdOfSource(source);
  if (!qrCodeId) return UNKNOWN_SOURCE_NAME;
  const name = codeNames.get(qrCodeId);
  return name === undefined ? { kind: "deleted-code", name: DELETED_CODE } : { kind: "code", name };
}

type ActionCounter = "intros" | "subscribers" | "signals";

/**
 * Counts one visitor action where it counts, inside the caller's transaction: the project's total, and the source's
 * (`countSourceAction`); the keys the person was new under go on the form's receipt, when it has one.
 */
export async function countVisitorAction(
  db: Kysely<Database>,
  projectId: string,
  source: string,
  email: string,
  action: ActionCounter,
  receipt: { newPeople?: string[] } | undefined,
): Promise<void> {
  await addToProjectStats(db, projectId, { [action]: 1 });
  const newPeople = await countSourceAction(db, projectId, source, email, action);
  if (receipt) receipt.newPeople = newPeople;
}

/**
 * One action of one person through `source`, inside the caller's transaction. Resolves the keys (the source, and
 * all sources) under which the person was new.
 */
export async function countSourceAction(db: Kysely<Database>, projectId: string, source: string, email: string, action: ActionCounter): Promise<string[]> {
  const newUnder: string[] = [];
  for (const key of [source, ALL_SOURCES]) {
    const isNewPerson = await db
      .insertInto("source_people")
      .values({ project_id: projectId, source: key, email })
      .onConflict((oc) => oc.columns(["project_id", "source", "email"]).doNothing())
      .returning("email")
      .executeTakeFirst();
    const people = isNewPerson ? 1 : 0;
    if (isNewPerson) newUnder.push(key);
    const delta = key === ALL_SOURCES ? { people } : { [action]: 1, people };
    await addToSourceStats(db, projectId, key, delta);
  }
  return newUnder;
}

type SourceDelta = Partial<Record<"scans" | "viewers" | ActionCounter | "people" | "saves", number>>;

export async function addToSourceStats(db: Kysely<Database>, projectId: string, source: string, delta: SourceDelta): Promise<void> {
  const entries = Object.entries(delta).filter(([, value]) => value) as [keyof SourceDelta, number][];
  if (entries.length === 0) return;
  await db
    .insertInto("source_stats")
    .values({ project_id: projectId, source, ...Object.fromEntries(entries) })
    .onConflict((oc) =>
      oc.columns(["project_id", "source"]).doUpdateSet(Object.fromEntries(entries.map(([key, value]) => [key, sql`source_stats.${sql.ref(key)} + ${value}`]))),
    )
    .execute();
}
