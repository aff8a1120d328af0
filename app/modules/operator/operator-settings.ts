/**
 * The operator's public facts (support contact, postal address, hours, legal effective dates), set by the
 * environment at start-up (`app/config.server.ts`). This is the whole of the configuration that reaches the
 * browser: the root loader sends exactly these fields.
 */
export type OperatorSettings = {
  supportEmail: string;
  supportAddress: string;
  supportHours: string;
  /** ISO dates, YYYY-MM-DD. */
  privacyEffectiveDate: string;
  termsEffectiveDate: string;
};

export const DEFAULT_OPERATOR_SETTINGS: OperatorSettings = {
  supportEmail: "support@pitchqr.app",
  supportAddress: "San Francisco, California",
  supportHours: "Monday–Friday, 9AM–6PM PST",
  privacyEffectiveDate: "2025-10-14",
  termsEffectiveDate: "2025-10-14",
};

/** True for a real calendar date written YYYY-MM-DD (2025-02-30 is not one). */
export function isIsoDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** '2025-10-14' → 'October 14, 2025', the same on the server and in every browser. */
export function formatEffectiveDate(isoDate: string): string {
  return new Intl.DateTimeFormat("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" }).format(new Date(`${isoDate}T00:00:00Z`));
}
