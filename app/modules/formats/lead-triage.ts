import type { LeadStatus } from "~/db/schema";

/**
 * The founder's triage of a lead, in words: the inbox, its filters and the CSV export all name them so. Here, apart
 * from the leads module, because the CSV export (analytics) names them too and leads already import analytics.
 */

/** The founder's triage, in the order a lead moves through them. */
export const LEAD_STATUSES = ["new", "contacted", "meeting", "passed"] as const satisfies readonly LeadStatus[];
export const LEAD_STATUS_LABELS: Record<LeadStatus, string> = { new: "New", contacted: "Contacted", meeting: "Meeting", passed: "Passed" };

/** How warm a lead is, the founder's one-tap call. */
export const LEAD_TEMPERATURES = ["hot", "warm", "cold"] as const;
export type LeadTemperature = (typeof LEAD_TEMPERATURES)[number];
export const LEAD_TEMPERATURE_LABELS: Record<LeadTemperature, string> = { hot: "Hot", warm: "Warm", cold: "Cold" };
