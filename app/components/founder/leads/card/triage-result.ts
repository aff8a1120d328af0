import type { FormResult } from "~/modules/forms/form-result";

/** What the leads action answers a post about one lead (triage, temperature, a call, awaiting): the lead's id with it. */
export type TriageResult = FormResult & { id?: string };
