import { Readable } from "node:stream";
import { stringify } from "csv-stringify/sync";
import type { Kysely, Selectable } from "kysely";
import type { Database, LeadsTable } from "~/db/schema";
import { requireProjectRole } from "~/modules/access/project-access.server";
import { formatAmountRange } from "~/modules/formats/amount";
import { LEAD_STATUS_LABELS, LEAD_TEMPERATURE_LABELS } from "~/modules/formats/lead-triage";
import { readingOfLeads } from "~/modules/deck/lead-reading.server";
import type { LeadReading } from "~/modules/deck-reading/reading-text";
import { csvFileName, neutralizeFormula } from "./contacts-csv";
import { codeNamesOf } from "./source-names";
import { nameSource, qrCodeIdOfSource, readCodesMovedAway } from "./sources.server";

/**
 * The product's seven columns first, then what a signal adds and where the person came from, then the
 * founder's own triage of the person's lead and how long they waited for an answer, then their latest answer to the
 * project's qualifying question, then where the team met them in person (decision 84), then how much of the deck on
 * the page now they read (decision 99: 0 and 0 for someone who read none of it).
 */
export const CSV_COLUMNS = [
  "Name",
  "Email",
  "Intent",
  "Role Tags",
  "LinkedIn",
  "Note",
  "Created At",
  "Tier",
  "Range",
  "Message",
  "Source",
  "Event tag",
  "Status",
  "Temperature",
  "Founder note",
  "First response at",
  "Minutes to first response",
  "Qualifying answer",
  "Met in person",
  "Phone",
  "Pages read",
  "Seconds read",
] as const;

/** Spreadsheets (Excel above all) read a CSV without it in the system's legacy code page, mangling accents. */
const UTF8_BYTE_ORDER_MARK = "\uFEFF";

const PAGE_SIZE = 1_000;

/**
 * The owner's contacts as CSV (the seven columns and those after them), one row per person (decision 22), newest first: what
 * they did in Intent, their latest intro's roles, LinkedIn and note, their latest signal's tier, range and message,
 * and the source of their first action; then the people the team only met in person (captured leads with no
 * contact), newest first, with an empty Intent and the captured LinkedIn (decision 84). Rows are read in keyset pages of a
 * thousand, so memory stays flat for 100,000 contacts and the database is free between pages (on SQLite one
 * long read would hold the app's only connection); each page leaves as one chunk, so compression works on
 * sizeable blocks. Quoted per RFC 4180 by csv-stringify; cells a spreadsheet would run as a formula are
 * neutralised.
 */
export async function exportContactsCsv(db: Kysely<Database>, ownerId: string, projectId: string): Promise<{ fileName: string; body: Readable; count: number }> {
  const project = await requireProjectRole(db, ownerId, projectId, "export");
  const { count } = await db
    .selectFrom("contacts")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("project_id", "=", project.id)
    .executeTakeFirstOrThrow();

  // Codes re-pointed to another project still name the people they brought here (decision 64).
  const [ownCodes, movedAway] = await Promise.all([
    db.selectFrom("qr_codes").select(["id", "label", "event_tag"]).where("project_id", "=", project.id).execute(),
    readCodesMovedAway(db, project.id),
  ]);
  const projectCodes = [...movedAway, ...ownCodes];
  const codes = new Map(projectCodes.map((code) => [code.id, code]));
  const codeNames = codeNamesOf(projectCodes);
  // The latest signal of each contact (rows come oldest first, so the latest overwrites), and who sent an intro.
  const actionsOfContacts = async (contactIds: string[]) => {
    const [signals, intros] = await Promise.all([
      db
        .selectFrom("signals")
        .select(["contact_id", "range_label", "range_min", "range_max", "message"])
        .where("contact_id", "in", contactIds)
        .orderBy("created_at")
        .orderBy("id")
        .execute(),
      db.selectFrom("intros").select("contact_id").distinct().where("contact_id", "in", contactIds).execute(),
    ]);
    return { latestSignal: new Map(signals.map((signal) => [signal.contact_id, signal])), introduced: new Set(intros.map((intro) => intro.contact_id)) };
  };
  // The person's lead (one per e-mail per project): the founder's triage and the response clock.
  const leadsOfContacts = async (emails: string[]) => {
    const leads = await db
      .selectFrom("leads")
      .select(LEAD_COLUMNS)
      .where("project_id", "=", project.id)
      .where("email", "in", [...new Set(emails)])
      .execute();
    return new Map(leads.map((lead) => [lead.email, lead]));
  };
  const leadColumns = (lead: CsvLead | undefined, met: MetInPersonCells | undefined, reading: LeadReading | undefined) => [
    lead ? LEAD_STATUS_LABELS[lead.status] : "",
    lead?.temperature ? LEAD_TEMPERATURE_LABELS[lead.temperature] : "",
    lead?.note ?? "",
    // A person only met in person waits for nobody: no answer to time (decision 84).
    lead?.awaiting_since && lead.first_response_at ? lead.first_response_at : "",
    lead?.awaiting_since && lead.first_response_at ? String(minutesBetween(lead.awaiting_since, lead.first_response_at)) : "",
    lead?.answer ?? "",
    met?.where ?? "",
    met?.phone ?? "",
    String(reading?.pagesRead ?? 0),
    String(Math.round((reading?.ms ?? 0) / 1000)),
  ];

  async function* pages() {
    yield UTF8_BYTE_ORDER_MARK + stringify([[...CSV_COLUMNS]], { record_delimiter: "windows" });
    yield* contactPages();
    yield* metInPersonPages();
  }

  async function* contactPages() {
    let after: { created_at: string; id: string } | null = null;
    for (;;) {
      let query = db
        .selectFrom("contacts")
        .select(["id", "name", "email", "intent", "subscribed", "role_tags", "linkedin_url", "note", "created_at", "source"])
        .where("project_id", "=", project.id);
      if (after) {
        const cursor: { created_at: string; id: string } = after;
        query = query.where((eb) =>
          eb.or([eb("created_at", "<", cursor.created_at), eb.and([eb("created_at", "=", cursor.created_at), eb("id", "<", cursor.id)])]),
        );
      }
      const rows = await query.orderBy("created_at", "desc").orderBy("id", "desc").limit(PAGE_SIZE).execute();
      if (rows.length === 0) return;
      const [{ latestSignal, introduced }, leads] = await Promise.all([actionsOfContacts(rows.map((row) => row.id)), leadsOfContacts(rows.map((row) => row.email))]);
      const leadIds = [...leads.values()].map((lead) => lead.id);
      const [met, readings] = await Promise.all([metInPersonOf(db, project.id, leadIds, codeNames), readingOfLeads(db, project.id, leadIds)]);
      const records = rows.map((row) => {
        const signal = latestSignal.get(row.id);
        const lead = leads.get(row.email);
        const code = codes.get(qrCodeIdOfSource(row.source) ?? "");
        return [
          row.name,
          row.email,
          intentsOf(introduced.has(row.id), signal !== undefined, row.subscribed) || row.intent,
          row.role_tags.join(";"),
          row.linkedin_url ?? "",
          row.note ?? "",
          row.created_at,
          signal?.range_label ?? "",
          signal ? formatAmountRange(Number(signal.range_min), signal.range_max === null ? null : Number(signal.range_max)) : "",
          signal?.message ?? "",
          nameSource(row.source, codeNames).name,
          code?.event_tag ?? "",
          ...leadColumns(lead, lead ? met.get(lead.id) : undefined, lead ? readings.get(lead.id) : undefined),
        ].map(neutralizeFormula);
      });
      yield stringify(records, { record_delimiter: "windows" });
      const last = rows[rows.length - 1]!;
      after = { created_at: last.created_at, id: last.id };
      if (rows.length < PAGE_SIZE) return;
    }
  }

  async function* metInPersonPages() {
    let after: { first_seen_at: string; id: string } | null = null;
    for (;;) {
      let query = metOnlyLeads(db, project.id).select([...LEAD_COLUMNS, "name", "source"]);
      if (after) {
        const cursor: { first_seen_at: string; id: string } = after;
        query = query.where((eb) =>
          eb.or([eb("first_seen_at", "<", cursor.first_seen_at), eb.and([eb("first_seen_at", "=", cursor.first_seen_at), eb("id", "<", cursor.id)])]),
        );
      }
      const rows = await query.orderBy("first_seen_at", "desc").orderBy("id", "desc").limit(PAGE_SIZE).execute();
      if (rows.length === 0) return;
      const leadIds = rows.map((row) => row.id);
      const [met, readings] = await Promise.all([metInPersonOf(db, project.id, leadIds, codeNames), readingOfLeads(db, project.id, leadIds)]);
      const records = rows.map((row) => {
        const cells = met.get(row.id);
        const code = codes.get(qrCodeIdOfSource(row.source) ?? "");
        return [
          row.name,
          // A person met without an e-mail (decision 92) has none to export.
          row.email ?? "",
          "",
          "",
          cells?.linkedinUrl ?? "",
          "",
          row.first_seen_at,
          "",
          "",
          "",
          nameSource(row.source, codeNames).name,
          code?.event_tag ?? "",
          ...leadColumns(row, cells, readings.get(row.id)),
        ].map(neutralizeFormula);
      });
      yield stringify(records, { record_delimiter: "windows" });
      const last = rows[rows.length - 1]!;
      after = { first_seen_at: last.first_seen_at, id: last.id };
      if (rows.length < PAGE_SIZE) return;
    }
  }

  const metOnly = await metOnlyLeads(db, project.id)
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .executeTakeFirstOrThrow();
  return { fileName: csvFileName(project.title), body: Readable.from(pages()), count: Number(count) + Number(metOnly.count) };
}

const LEAD_COLUMNS = ["id", "email", "status", "temperature", "note", "first_seen_at", "awaiting_since", "first_response_at", "answer"] as const;
type CsvLead = Pick<Selectable<LeadsTable>, (typeof LEAD_COLUMNS)[number]>;

/** The project's leads met in person (a capture) who never acted on the pitch page themselves (no contact). */
function metOnlyLeads(db: Kysely<Database>, projectId: string) {
  return db
    .selectFrom("leads")
    .where("leads.project_id", "=", projectId)
    .where((eb) => eb.exists(eb.selectFrom("lead_captures").select("lead_captures.id").whereRef("lead_captures.lead_id", "=", "leads.id")))
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom("contacts").select("contacts.id").whereRef("contacts.project_id", "=", "leads.project_id").whereRef("contacts.email", "=", "leads.email"))),
    );
}

type MetInPersonCells = { where: string; linkedinUrl: string | null; phone: string | null };

/**
 * The 'Met in person' cell of each of these leads: every capture, newest first, as "{code's name}" with the
 * founder's line after a colon, joined by semicolons; and the newest captured LinkedIn and phone.
 */
async function metInPersonOf(db: Kysely<Database>, projectId: string, leadIds: string[], codeNames: ReadonlyMap<string, string>): Promise<Map<string, MetInPersonCells>> {
  const byLead = new Map<string, MetInPersonCells>();
  if (leadIds.length === 0) return byLead;
  const rows = await db
    .selectFrom("lead_captures")
    .select(["lead_id", "source", "note", "linkedin_url", "phone"])
    .where("project_id", "=", projectId)
    .where("lead_id", "in", leadIds)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  for (const row of rows) {
    const line = `${nameSource(row.source, codeNames).name}${row.note ? `: ${row.note}` : ""}`;
    const cells = byLead.get(row.lead_id);
    byLead.set(
      row.lead_id,
      cells
        ? { where: `${cells.where}; ${line}`, linkedinUrl: cells.linkedinUrl ?? row.linkedin_url, phone: cells.phone ?? row.phone }
        : { where: line, linkedinUrl: row.linkedin_url, phone: row.phone },
    );
  }
  return byLead;
}

/** Whole minutes from when a lead began waiting to the founder's first response, rounded down as the card's clock is. */
function minutesBetween(from: string, to: string): number {
  return Math.max(0, Math.floor((Date.parse(to) - Date.parse(from)) / 60_000));
}

/**
 * The Intent column: what the person did, as the spec's intents, joined with semicolons like the role tags; empty for
 * someone who only followed and has unsubscribed (the caller then names their first intent).
 */
function intentsOf(introduced: boolean, signalled: boolean, subscribed: boolean): string {
  return [introduced && "Intro", signalled && "Supporter", subscribed && "Subscriber"].filter(Boolean).join(";");
}
