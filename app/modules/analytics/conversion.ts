/**
 * (intro contacts + subscribed contacts + signals) / unique viewers x 100, one decimal;
 * 0 when there are no unique viewers.
 */
export function conversionRate(actions: number, uniqueViewers: number): number {
  if (uniqueViewers <= 0) return 0;
  return Math.round((actions / uniqueViewers) * 1000) / 10;
}
