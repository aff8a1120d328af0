import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";

export type MySignal = {
  id: string;
  rangeLabel: string;
  rangeMin: number;
  rangeMax: number | null;
  message: string | null;
  createdAt: string;
  isPublic: boolean;
  projectTitle: string;
  projectSlug: string;
};

/**
 * The signals a signed-in user made: those made while signed in, and those whose contact
 * e-mail matches the user's once that e-mail is verified. Never another person's signals to whoever registers
 * their address.
 */
export async function listMySignals(db: Kysely<Database>, user: { id: string; email: string; emailVerified: boolean }): Promise<MySignal[]> {
  const rows = await db
    .selectFrom("signals")
    .innerJoin("projects", "projects.id", "signals.project_id")
    .innerJoin("contacts", "contacts.id", "signals.contact_id")
    .select([
      "signals.id",
      "signals.range_label",
      "signals.range_min",
      "signals.range_max",
      "signals.message",
      "signals.created_at",
      "signals.is_public",
      "projects.title",
      "projects.slug",
    ])
    .where((eb) =>
      user.emailVerified
        ? eb.or([eb("signals.user_id", "=", user.id), eb("contacts.email", "=", user.email.toLowerCase())])
        : eb("signals.user_id", "=", user.id),
    )
    .where("projects.status", "=", "published")
    .orderBy("signals.created_at", "desc")
    .orderBy("signals.id", "desc")
    .limit(100)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    rangeLabel: row.range_label,
    rangeMin: Number(row.range_min),
    rangeMax: row.range_max === null ? null : Number(row.range_max),
    message: row.message,
    createdAt: row.created_at,
    isPublic: row.is_public,
    projectTitle: row.title,
    projectSlug: row.slug,
  }));
}
