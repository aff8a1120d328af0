import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { acceptedTimeZone } from "~/modules/time/founder-zone";
import type { TimeZoneInput } from "./time-zone-form";

/** The founder's own choice on My Projects: every date and bucket on their screens follows it from the next page on. */
export async function saveFounderTimeZone(db: Kysely<Database>, userId: string, input: TimeZoneInput): Promise<{ message: string }> {
  await db.updateTable("users").set({ time_zone: input.timeZone, updated_at: new Date().toISOString() }).where("id", "=", userId).execute();
  return { message: `Dates now show in ${input.timeZone} time.` };
}

/**
 * The zone a browser detected at sign-up, kept for the new account; a value that is not an IANA zone is dropped
 * (the founder cannot see or fix a hidden field), which leaves UTC until they pick one.
 */
export async function keepDetectedTimeZone(db: Kysely<Database>, userId: string, detected: string): Promise<void> {
  const timeZone = acceptedTimeZone(detected);
  if (timeZone) await db.updateTable("users").set({ time_zone: timeZone }).where("id", "=", userId).execute();
}
