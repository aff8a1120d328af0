import { sql, type Kysely, type Migration } from "kysely";

const LABEL_MAX = 100;

/**
 * One label per project, trimmed and case-insensitive: a unique index on `(project_id, lower(label))`.
 * Databases made before it may already hold duplicates; the oldest code of each keeps its label and the others
 * get a suffix (` (2)`, ` (3)`, …) that is itself unused, so the index can be built and nothing printed changes
 * (labels are not in the encoded URL).
 */
export const uniqueQrLabels: Migration = {
  async up(db: Kysely<any>) {
    const codes: { id: string; project_id: string; label: string }[] = await db
      .selectFrom("qr_codes")
      .select(["id", "project_id", "label"])
      .orderBy("project_id")
      .orderBy("created_at")
      .orderBy("id")
      .execute();
    const taken = new Map<string, Set<string>>();
    for (const code of codes) {
      const labels = taken.get(code.project_id) ?? new Set<string>();
      taken.set(code.project_id, labels);
      labels.add(labelKey(code.label));
    }
    const seen = new Map<string, Set<string>>();
    for (const code of codes) {
      const kept = seen.get(code.project_id) ?? new Set<string>();
      seen.set(code.project_id, kept);
      const key = labelKey(code.label);
      if (!kept.has(key)) {
        kept.add(key);
        continue;
      }
      const labels = taken.get(code.project_id)!;
      let renamed = code.label;
      for (let n = 2; labels.has(labelKey(renamed)); n += 1) {
        const suffix = ` (${n})`;
        renamed = `${code.label.trim().slice(0, LABEL_MAX - suffix.length)}${suffix}`;
      }
      labels.add(labelKey(renamed));
      kept.add(labelKey(renamed));
      await db.updateTable("qr_codes").set({ label: renamed }).where("id", "=", code.id).execute();
    }
    await sql`create unique index qr_codes_project_label_unique on qr_codes (project_id, lower(label))`.execute(db);
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex("qr_codes_project_label_unique").execute();
  },
};

/** The JavaScript fold is at least as broad as SQL lower() on either database, so no pair the index compares equal survives. */
function labelKey(label: string): string {
  return label.trim().toLowerCase();
}
