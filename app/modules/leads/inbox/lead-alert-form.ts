import { z } from "zod/mini";
import type { AlertMode } from "~/db/schema";

export const ALERT_MODES = ["instant", "daily", "off"] as const satisfies readonly AlertMode[];
export const ALERT_MODE_LABELS: Record<AlertMode, string> = {
  instant: "An e-mail for each one",
  daily: "One daily summary",
  off: "No e-mail",
};
export const UNKNOWN_ALERT_MODE_MESSAGE = "Choose an e-mail for each one, a daily summary, or no e-mail";

/** The founder's alert choices for one project, run by the browser and the server. */
export const leadAlertSettingsSchema = z.object({
  introAlerts: z.enum(ALERT_MODES, UNKNOWN_ALERT_MODE_MESSAGE),
  signalAlerts: z.enum(ALERT_MODES, UNKNOWN_ALERT_MODE_MESSAGE),
});
export type LeadAlertSettings = z.infer<typeof leadAlertSettingsSchema>;
