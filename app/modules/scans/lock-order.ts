// Every batch of scans writes the rows it shares with others in one order (table by table, sorted by key), so two
// batches wait for each other instead of deadlocking. These sort and count rows by such keys.

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareKeys(a: readonly string[], b: readonly string[]): number {
  for (let index = 0; index < Math.max(a.length, b.length); index += 1) {
    const order = compareText(a[index] ?? "", b[index] ?? "");
    if (order) return order;
  }
  return 0;
}

/** The first row of each key, sorted by key: every batch inserts the rows it shares with others in one order. */
export function sortedDistinct<T>(rows: readonly T[], keyOf: (row: T) => string[]): T[] {
  const byKey = new Map<string, { key: string[]; row: T }>();
  for (const row of rows) {
    const key = keyOf(row);
    const id = JSON.stringify(key);
    if (!byKey.has(id)) byKey.set(id, { key, row });
  }
  return [...byKey.values()].sort((a, b) => compareKeys(a.key, b.key)).map((entry) => entry.row);
}

/** Rows counted per key, sorted by key, with `get(key)` to look a count up. */
export function tally<T>(rows: readonly T[], keyOf: (row: T) => string[]) {
  const counts = new Map<string, { key: string[]; count: number }>();
  for (const row of rows) {
    const key = keyOf(row);
    const id = JSON.stringify(key);
    const entry = counts.get(id);
    if (entry) entry.count += 1;
    else counts.set(id, { key, count: 1 });
  }
  const sorted = [...counts.values()].sort((a, b) => compareKeys(a.key, b.key));
  return Object.assign(sorted, { get: (key: readonly string[]) => counts.get(JSON.stringify(key))?.count });
}
