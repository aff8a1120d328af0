/**
 * The project form's list state (metrics, points, tiers) and how it travels: as JSON in hidden inputs that
 * `readProjectForm` reads. Inputs hold text; the JSON holds what the schema expects (numbers for amounts,
 * `null` for an empty maximum, one perk per line). Pure functions, shared by the editors and the form.
 */

export type TierValue = { id?: string; rangeLabel: string; rangeMin: number; rangeMax: number | null; perks: string[] };
export type MetricValue = { label: string; value: string };

export type MetricRow = { key: string; label: string; value: string };
export type PointRow = { key: string; text: string };
export type TierRow = { key: string; id?: string; rangeLabel: string; rangeMin: string; rangeMax: string; perks: string };

/** Deterministic keys for the rows the page starts with (the same on the server and in the browser). */
export const initialKey = (prefix: string, index: number) => `${prefix}-initial-${index}`;

export function metricRows(metrics: readonly MetricValue[]): MetricRow[] {
  return metrics.map((metric, index) => ({ key: initialKey("metric", index), label: metric.label, value: metric.value }));
}

export function pointRows(prefix: string, points: readonly string[]): PointRow[] {
  return points.map((text, index) => ({ key: initialKey(prefix, index), text }));
}

export function tierRows(tiers: readonly TierValue[]): TierRow[] {
  return tiers.map((tier, index) => ({
    key: initialKey("tier", index),
    ...(tier.id ? { id: tier.id } : {}),
    rangeLabel: tier.rangeLabel,
    rangeMin: String(tier.rangeMin),
    rangeMax: tier.rangeMax === null ? "" : String(tier.rangeMax),
    perks: tier.perks.join("\n"),
  }));
}

/** An amount input's text as the schema's number: empty or unreadable is `null` (the schema names the problem). */
export function amountOrNull(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : null;
}

export function perksFromText(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
}

export const metricsJson = (rows: readonly MetricRow[]) => JSON.stringify(rows.map(({ label, value }) => ({ label, value })));
export const pointsJson = (rows: readonly PointRow[]) => JSON.stringify(rows.map((row) => row.text));
export const tiersJson = (rows: readonly TierRow[]) =>
  JSON.stringify(
    rows.map((row) => ({
      ...(row.id ? { id: row.id } : {}),
      rangeLabel: row.rangeLabel,
      rangeMin: amountOrNull(row.rangeMin),
      rangeMax: amountOrNull(row.rangeMax),
      perks: perksFromText(row.perks),
    })),
  );

/** Rows `readProjectForm` keeps (it drops blank ones), by their index on screen. */
export const keptMetricRows = (rows: readonly MetricRow[]) =>
  rows.flatMap((row, index) => (row.label.trim() || row.value.trim() ? [index] : []));
export const keptPointRows = (rows: readonly PointRow[]) => rows.flatMap((row, index) => (row.text.trim() ? [index] : []));

/**
 * After a save the server gives new tiers their ids; a row still without one takes the id of the saved tier
 * with the same content that no other row holds, so the next save updates it instead of adding it again.
 */
export function adoptSavedTierIds(rows: readonly TierRow[], saved: readonly TierValue[]): TierRow[] {
  const taken = new Set(rows.flatMap((row) => (row.id ? [row.id] : [])));
  let changed = false;
  const next = rows.map((row) => {
    if (row.id) return row;
    const match = saved.find(
      (tier) =>
        tier.id &&
        !taken.has(tier.id) &&
        tier.rangeLabel === row.rangeLabel.trim() &&
        tier.rangeMin === amountOrNull(row.rangeMin) &&
        tier.rangeMax === amountOrNull(row.rangeMax) &&
        JSON.stringify(tier.perks) === JSON.stringify(perksFromText(row.perks)),
    );
    if (!match?.id) return row;
    taken.add(match.id);
    changed = true;
    return { ...row, id: match.id };
  });
  return changed ? next : (rows as TierRow[]);
}

export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  if (to < 0 || to >= items.length || from === to) return [...items];
  const next = [...items];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item as T);
  return next;
}

/** A saved project as the edit form starts from it. */
export type ProjectFormProject = {
  id: string;
  title: string;
  slug: string;
  oneLiner: string;
  summary: string;
  videoUrl: string;
  deckUrl: string;
  calendlyUrl: string;
  status: string;
  /** The project's printed codes (edit only): the slug field says they keep working through the old address. */
  qrCodeCount?: number;
  metrics: MetricValue[];
  problemPoints: string[];
  solutionPoints: string[];
  tiers: TierValue[];
};
