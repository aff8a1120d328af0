import { Readable } from "node:stream";
import { stringify } from "csv-stringify";
import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { assertOwner } from "~/modules/projects/founder-projects.server";
import { csvFileName, neutralizeFormula } from "./contacts-csv";

export const CSV_COLUMNS = ["Name", "Email", "Intent", "Role Tags", "LinkedIn", "Note", "Created At"] as const;

/**
 * The owner's contacts as CSV (SPEC.md section 9 columns), newest first, streamed row by row from the database
 * so a project with 100,000 contacts exports in constant memory. Quoted per RFC 4180 by csv-stringify; cells a
 * spreadsheet would run as a formula are neutralised (DESIGN.md item 6).
 */
export async function exportContactsCsv(db: Kysely<Database>, ownerId: string, projectId: string): Promise<{ fileName: string; body: Readable; count: number }> {
  const project = await assertOwner(db, ownerId, projectId);
  const { count } = await db
    .selectFrom("contacts")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("project_id", "=", project.id)
    .executeTakeFirstOrThrow();
  const rows = db
    .selectFrom("contacts")
    .select(["name", "email", "intent", "role_tags", "linkedin_url", "note", "created_at"])
    .where("project_id", "=", project.id)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .stream(500);
  async function* records() {
    for await (const row of rows) {
      yield [row.name, row.email, row.intent, row.role_tags.join(";"), row.linkedin_url ?? "", row.note ?? "", row.created_at].map(neutralizeFormula);
    }
  }
  const body = Readable.from(records()).pipe(stringify({ header: true, columns: [...CSV_COLUMNS], record_delimiter: "windows" }));
  return { fileName: csvFileName(project.title), body, count: Number(count) };
}
