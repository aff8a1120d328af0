import { sql, type Kysely, type Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * One contact per e-mail address per project (decision 22). Before, every intro and every signal wrote
 * its own contact, and concurrent identical subscriptions could each write one. Now:
 * - each intro's role tags, LinkedIn URL and note are kept in `intros` (an existing Intro contact becomes the intro
 *   with the same id), the contact keeping the latest intro's as the person's profile;
 * - duplicates are merged into the earliest contact of the address: it keeps the latest name, is subscribed when
 *   any of them was, and every signal and intro points at it; `contact_merges` remembers the merged ids so the
 *   unsubscribe links already mailed with them keep working;
 * - a unique index on (project_id, email) (e-mails are stored lower-case) makes concurrent writers meet;
 * - the subscriber counters, inflated by duplicates, are recounted from the contacts.
 */
export const oneContactPerAddress: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema
      .createTable("intros")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("contact_id", "text", (c) => c.notNull().references("contacts.id").onDelete("cascade"))
      .addColumn("role_tags", t.json, (c) => c.notNull().defaultTo(t.emptyList))
      .addColumn("linkedin_url", "text")
      .addColumn("note", "text")
      .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("set null"))
      .addColumn("source", "text", (c) => c.notNull().defaultTo("unknown"))
      .addColumn("created_at", t.timestamp, (c) => c.notNull().defaultTo(t.now))
      .execute();
    await db.schema.createIndex("intros_contact_idx").on("intros").columns(["contact_id", "created_at"]).execute();
    await db.schema.createIndex("intros_project_created_idx").on("intros").columns(["project_id", "created_at"]).execute();
    await sql`
      insert into intros (id, project_id, contact_id, role_tags, linkedin_url, note, user_id, source, created_at)
      select id, project_id, id, role_tags, linkedin_url, note, user_id, source, created_at from contacts where intent = 'Intro'
    `.execute(db);

    await db.schema
      .createTable("contact_merges")
      .addColumn("merged_id", "text", (c) => c.primaryKey())
      .addColumn("contact_id", "text", (c) => c.notNull().references("contacts.id").onDelete("cascade"))
      .execute();
    await mergeDuplicateContacts(db);
    await db.schema.createIndex("contacts_project_email_unique").on("contacts").columns(["project_id", "email"]).unique().execute();
    await recountSubscribers(db);
  },
};

/** Merges every project's contacts that share an address into the earliest one, keeping every action. */
export async function mergeDuplicateContacts(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await sql`update contacts set email = lower(email) where email <> lower(email)`.execute(db);
  const sameAddress = (alias: string) => sql.raw(`${alias}.project_id = contacts.project_id and ${alias}.email = contacts.email`);
  await sql`
    insert into contact_merges (merged_id, contact_id)
    select contacts.id, (select s.id from contacts s where ${sameAddress("s")} order by s.created_at, s.id limit 1)
    from contacts
    where contacts.id <> (select s.id from contacts s where ${sameAddress("s")} order by s.created_at, s.id limit 1)
  `.execute(db);
  const survivors = sql`contacts.id in (select contact_id from contact_merges)`;
  await sql`
    update contacts set
      name = (select o.name from contacts o where ${sameAddress("o")} order by o.created_at desc, o.id desc limit 1),
      subscribed = exists (select 1 from contacts o where ${sameAddress("o")} and o.subscribed = ${t.true}),
      user_id = coalesce(user_id, (select o.user_id from contacts o where ${sameAddress("o")} and o.user_id is not null order by o.created_at desc, o.id desc limit 1))
    where ${survivors}
  `.execute(db);
  const latestIntro = (column: string) =>
    sql`(select ${sql.ref(`o.${column}`)} from contacts o where ${sameAddress("o")} and o.intent = 'Intro' order by o.created_at desc, o.id desc limit 1)`;
  await sql`
    update contacts set role_tags = ${latestIntro("role_tags")}, linkedin_url = ${latestIntro("linkedin_url")}, note = ${latestIntro("note")}
    where ${survivors} and exists (select 1 from contacts o where ${sameAddress("o")} and o.intent = 'Intro')
  `.execute(db);
  for (const table of ["signals", "intros"]) {
    await sql`
      update ${sql.table(table)} set contact_id = (select m.contact_id from contact_merges m where m.merged_id = ${sql.ref(`${table}.contact_id`)})
      where contact_id in (select merged_id from contact_merges)
    `.execute(db);
  }
  await sql`delete from contacts where id in (select merged_id from contact_merges)`.execute(db);
}

/** `project_stats.subscribers` is the number of subscribed contacts: recounted once duplicates are gone. */
export async function recountSubscribers(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  await sql`
    update project_stats set subscribers = (select count(*) from contacts c where c.project_id = project_stats.project_id and c.subscribed = ${t.true})
  `.execute(db);
}
