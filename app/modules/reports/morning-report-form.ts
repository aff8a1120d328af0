import { z } from "zod/mini";

export const MORNING_REPORT_CHOICES = ["on", "off"] as const;
export const MORNING_REPORT_LABELS: Record<(typeof MORNING_REPORT_CHOICES)[number], string> = {
  on: "Send the morning-after report",
  off: "Don't send it",
};
export const MORNING_REPORT_MESSAGE = "Choose whether to send the morning-after report";

/** The project's morning-after report switch (decision 66), run by the browser and the server. */
export const morningReportSchema = z.object({
  morningReport: z.enum(MORNING_REPORT_CHOICES, MORNING_REPORT_MESSAGE),
});
export type MorningReportInput = z.infer<typeof morningReportSchema>;
