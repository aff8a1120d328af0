import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { requireProjectRole } from "~/modules/access/project-access.server";
import { roleAllows } from "~/modules/access/roles";
import type { MorningReportInput } from "./morning-report-form";

/** Whether the project sends the morning-after report (on unless turned off), and whether this member may change it. */
export async function getMorningReportSetting(db: Kysely<Database>, userId: string, projectId: string): Promise<{ enabled: boolean; mayChange: boolean }> {
  const project = await requireProjectRole(db, userId, projectId, "view");
  const row = await db.selectFrom("project_alert_settings").select("morning_report").where("project_id", "=", project.id).executeTakeFirst();
  return {
    enabled: row?.morning_report ?? true,
    mayChange: roleAllows(project.role, "settings"),
  };
}

/** Turns the project's morning-after report on or off; for the roles allowed the project's settings (decision 61). */
export async function saveMorningReportSetting(db: Kysely<Database>, userId: string, projectId: string, input: MorningReportInput): Promise<void> {
  const project = await requireProjectRole(db, userId, projectId, "settings");
  const values = { morning_report: input.morningReport === "on" };
  await db
    .insertInto("project_alert_settings")
    .values({ project_id: project.id, ...values })
    .onConflict((oc) => oc.column("project_id").doUpdateSet(values))
    .execute();
}
