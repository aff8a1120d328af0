import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { FASTEST_HUMAN_FORM_MS } from "~/modules/rate-limit/rate-limit.server";
import type { ScanRecorder } from "./scans.server";

/**
 * How long a form waits for word of a page load another instance may have just served (decision 80), when nothing
 * is known of its browser's page load yet. Such word arrives within milliseconds; a browser the door never counts
 * (the team's) is not waited for.
 */
export const UNHEARD_PAGE_LOAD_WAIT_MS = 1_000;

/**
 * Loads of one browser closer together than this are one visit: a reload, the page reopened from a tab or a
 * second scan of the code a few minutes later is not a new reading for the speed check.
 */
export const VISIT_GAP_MS = 30 * 60_000;

/** How many of a browser's latest loads are read to find where its visit began. */
const VISIT_LOADS_READ = 50;

/**
 * When the visit a form was sent from began (epoch ms), or null, for the speed check (decisions 50 and 96): the first
 * of this browser's page loads, up to the form's own time (`formAt`: when it was sent, or when it was filled in on a
 * phone that kept it offline), that follow each other within VISIT_GAP_MS. Loads are its scans written, after the
 * ones this process queued are (the door answers before it writes), and the page loads other instances told of
 * (decision 80), whose clocks may run a little ahead: a load up to the check's window after `formAt` is taken as
 * one the form may have been sent from. With several instances, a browser with a viewer cookie and no page load
 * known anywhere may have been served by another instance a moment ago, its word still on the way: then the form
 * waits for it, at most UNHEARD_PAGE_LOAD_WAIT_MS, unless `countedAtTheDoor` says its loads never count.
 */
export async function pageOpenedAt(
  db: Kysely<Database>,
  scans: ScanRecorder,
  projectId: string,
  viewerFingerprint: string,
  countedAtTheDoor: () => Promise<boolean>,
  formAt: number,
): Promise<number | null> {
  await scans.written();
  const upTo = formAt + FASTEST_HUMAN_FORM_MS;
  const written = await writtenPageLoads(db, projectId, viewerFingerprint, upTo);
  const heardOf = scans.elsewhere.latest(projectId, viewerFingerprint);
  const elsewhere = heardOf !== null && heardOf <= upTo ? [heardOf] : [];
  if (written.length || elsewhere.length) return visitStart([...written, ...elsewhere]);
  if (!scans.sharesPageLoads || !(await countedAtTheDoor())) return null;
  const heard = await scans.elsewhere.next(projectId, viewerFingerprint, UNHEARD_PAGE_LOAD_WAIT_MS);
  if (heard !== null) return heard;
  const late = await writtenPageLoads(db, projectId, viewerFingerprint, upTo);
  return late.length ? visitStart(late) : null;
}

/** The first load of the run of loads, back from the latest, that follow each other within VISIT_GAP_MS. */
function visitStart(loads: number[]): number {
  const newestFirst = [...loads].sort((a, b) => b - a);
  let start = newestFirst[0]!;
  for (const load of newestFirst.slice(1)) {
    if (start - load > VISIT_GAP_MS) break;
    start = load;
  }
  return start;
}

async function writtenPageLoads(db: Kysely<Database>, projectId: string, viewerFingerprint: string, upTo: number): Promise<number[]> {
  const rows = await db
    .selectFrom("scans")
    .select("scanned_at")
    .where("project_id", "=", projectId)
    .where("viewer_fingerprint", "=", viewerFingerprint)
    .where("scanned_at", "<=", new Date(upTo).toISOString())
    .orderBy("scanned_at", "desc")
    .limit(VISIT_LOADS_READ)
    .execute();
  return rows.map((row) => Date.parse(String(row.scanned_at)));
}
