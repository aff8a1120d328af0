import { sql, type Kysely, type Migration } from "kysely";
import { columnTypes } from "../column-types.server";

/**
 * Every action attributed to where the visitor came from (decision 16): a source is `qr:{code id}`,
 * `direct` (the plain link) or `unknown` (before attribution existed, or a client that never loaded the page).
 * Per project and source, exact counters kept by the writes (as decision 9): scans, unique viewers, intros,
 * subscriptions, signals and distinct people who acted; the `*` source holds the people of all sources.
 * Public form submissions refused by a limit are kept per project, so the founder sees them.
 */
export const attribution: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    for (const table of ["contacts", "signals"]) {
      await db.schema
        .alterTable(table)
        .addColumn("source", "text", (c) => c.notNull().defaultTo("unknown"))
        .execute();
    }
    await db.schema.alterTable("project_viewers").addColumn("last_source", "text").execute();

    await db.schema
      .createTable("source_stats")
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("source", "text", (c) => c.notNull())
      .addColumn("scans", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("viewers", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("intros", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("subscribers", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("signals", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("people", "integer", (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint("source_stats_pk", ["project_id", "source"])
      .execute();
    await db.schema
      .createTable("source_viewers")
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("source", "text", (c) => c.notNull())
      .addColumn("viewer_fingerprint", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("source_viewers_pk", ["project_id", "source", "viewer_fingerprint"])
      .execute();
    await db.schema
      .createTable("source_people")
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("source", "text", (c) => c.notNull())
      .addColumn("email", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("source_people_pk", ["project_id", "source", "email"])
      .execute();

    await db.schema
      .createTable("form_refusals")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("reason", "text", (c) => c.notNull())
      .addColumn("refused_at", t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema.createIndex("form_refusals_project_idx").on("form_refusals").columns(["project_id", "refused_at"]).execute();

    // What exists is counted once here: scans by the code they came through, actions as 'unknown'.
    const scanSource = sql`case when qr_code_id is null then 'direct' else 'qr:' || qr_code_id end`;
    await sql`insert into source_viewers (project_id, source, viewer_fingerprint)
      select distinct project_id, ${scanSource}, viewer_fingerprint from scans where viewer_fingerprint is not null`.execute(db);
    await sql`insert into source_stats (project_id, source, scans)
      select project_id, ${scanSource}, count(*) from scans group by project_id, ${scanSource}`.execute(db);
    await sql`update source_stats set viewers = (select count(*) from source_viewers v
      where v.project_id = source_stats.project_id and v.source = source_stats.source)`.execute(db);
    for (const source of ["unknown", "*"]) {
      await sql`insert into source_people (project_id, source, email) select distinct project_id, ${source}, email from contacts`.execute(db);
      await sql`insert into source_stats (project_id, source, intros, subscribers, signals, people)
        select p.id, ${source},
          (select count(*) from contacts c where c.project_id = p.id and c.intent = 'Intro'),
          (select count(*) from contacts c where c.project_id = p.id and c.intent = 'Subscriber'),
          (select count(*) from signals s where s.project_id = p.id),
          (select count(*) from source_people sp where sp.project_id = p.id and sp.source = ${source})
        from projects p where exists (select 1 from contacts c where c.project_id = p.id)`.execute(db);
    }
  },
};
