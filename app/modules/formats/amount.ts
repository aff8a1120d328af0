/**
 * Signal amounts: 1,000,000 or more is `$X.YM` (one decimal), 1,000 or more `$Xk`,
 * otherwise `$N`.
 *
 * Rounding rule chosen here (the spec leaves it open):
 * - `$X.YM` rounds half up to one decimal of a million: 1,500,000 → '$1.5M', 1,050,000 → '$1.1M',
 *   1,000,000 → '$1.0M'.
 * - `$Xk` rounds half up to whole thousands: 25,000 → '$25k', 2,500 → '$3k', 2,499 → '$2k'.
 *   A value that would round to 1,000k (999,500 to 999,999) is shown as '$1.0M' instead of '$1000k'.
 * - `$N` rounds to whole dollars: 999 → '$999'.
 * The thresholds apply to the amount itself, as the spec states them.
 */
export function formatAmount(amount: number): string {
  if (!Number.isFinite(amount)) return "$0";
  const sign = amount < 0 ? "-" : "";
  const n = Math.abs(amount);
  if (n >= 1_000_000) return `${sign}$${(Math.round(n / 100_000) / 10).toFixed(1)}M`;
  if (n >= 1_000) {
    const thousands = Math.round(n / 1_000);
    return thousands >= 1_000 ? `${sign}$1.0M` : `${sign}$${thousands}k`;
  }
  return `${sign}$${Math.round(n)}`;
}

/** A tier's range: 'min-max' ('$5k-$25k') with a maximum, 'min+' ('$1.0M+') without. */
export function formatAmountRange(min: number, max: number | null | undefined): string {
  return max === null || max === undefined ? `${formatAmount(min)}+` : `${formatAmount(min)}-${formatAmount(max)}`;
}
