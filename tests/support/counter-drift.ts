// The maintained counters (decision 9) beside the rows they stand for. A suite reads the drift before and after
// its traffic: any key that moved is a counter that went out of step with its rows.
type Row = Record<string, unknown>;
/** Plain SQL on either database, no parameters. */
export type ReadRows = (sql: string) => Promise<Row[]>;

const PROJECT_COUNTERS: [column: string, rows: string][] = [
  ["total_scans", "select project_id as id, count(*) as n from scans group by project_id"],
  ["unique_scans", "select project_id as id, count(*) as n from project_viewers group by project_id"],
  ["intros", "select project_id as id, count(*) as n from intros group by project_id"],
  ["subscribers", "select project_id as id, count(*) as n from contacts where subscribed = true group by project_id"],
  ["signals", "select project_id as id, count(*) as n from signals group by project_id"],
];

const SOURCE_COUNTERS: [column: string, rows: string][] = [
  ["scans", "select project_id || ' ' || case when qr_code_id is null then 'direct' else 'qr:' || qr_code_id end as id, count(*) as n from scans group by 1"],
  ["viewers", "select project_id || ' ' || source as id, count(*) as n from source_viewers group by 1"],
  ["intros", "select project_id || ' ' || source as id, count(*) as n from intros group by 1"],
  ["signals", "select project_id || ' ' || source as id, count(*) as n from signals group by 1"],
  ["people", "select project_id || ' ' || source as id, count(*) as n from source_people group by 1"],
  // Saves are kept per source and across sources ('*'), one row per project and viewer.
  ["saves", "select project_id || ' ' || source as id, count(*) as n from pitch_saves group by 1 union all select project_id || ' *' as id, count(*) as n from pitch_saves group by project_id"],
];

const QR_COUNTERS: [column: string, rows: string][] = [
  ["total_scans", "select qr_code_id as id, count(*) as n from scans where qr_code_id is not null group by qr_code_id"],
  ["unique_scans", "select qr_code_id as id, count(*) as n from qr_code_viewers group by qr_code_id"],
];

/** Each maintained counter minus the count of its raw rows, keyed by project (and source, or QR code) and column. */
export async function counterDrift(read: ReadRows): Promise<Record<string, number>> {
  const drift: Record<string, number> = {};
  const add = (key: string, value: unknown) => (drift[key] = (drift[key] ?? 0) + Number(value));
  const countersOf = async (kind: string, table: string, id: string, counters: [string, string][]) => {
    for (const row of await read(`select ${id} as id, ${counters.map(([column]) => column).join(", ")} from ${table}`)) {
      for (const [column] of counters) add(`${kind} ${String(row.id)} ${column}`, row[column]);
    }
    for (const [column, rows] of counters) for (const row of await read(rows)) add(`${kind} ${String(row.id)} ${column}`, -Number(row.n));
  };
  await countersOf("project", "project_stats", "project_id", PROJECT_COUNTERS);
  await countersOf("source", "source_stats", "project_id || ' ' || source", SOURCE_COUNTERS);
  await countersOf("qr", "qr_codes", "id", QR_COUNTERS);
  return drift;
}

/** The counters whose drift changed between two readings, as `key: before -> after`. */
export function movedDrift(before: Record<string, number>, after: Record<string, number>): string[] {
  return Object.keys({ ...before, ...after })
    .filter((key) => (after[key] ?? 0) !== (before[key] ?? 0))
    .map((key) => `${key}: ${before[key] ?? 0} -> ${after[key] ?? 0}`);
}
