import { onTeamOf } from "~/modules/access/project-access.server";
import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { formatAmountRange } from "~/modules/formats/amount";

export type ActivityType = "scan" | "intro" | "signal" | "update";

/** A derived activity item: a scan, intro, signal or posted update, as the live feed shows it. */
export type ActivityItem = {
  id: string;
  type: ActivityType;
  title: string;
  description: string;
  timestamp: string;
  projectSlug: string;
  projectTitle: string;
  eventTag: string | null;
};

const PER_SOURCE = 10;
const SHOWN = 20;

/**
 * The founder's live feed: the newest 10 scans, intros, signals and posted updates of
 * the founder's own projects only, merged, newest 20 first.
 */
export async function loadActivityFeed(db: Kysely<Database>, ownerId: string): Promise<ActivityItem[]> {
  const [scans, intros, signals, updates] = await Promise.all([
    db
      .selectFrom("scans")
      .innerJoin("projects", "projects.id", "scans.project_id")
      .leftJoin("qr_codes", "qr_codes.id", "scans.qr_code_id")
      .select(["scans.id", "scans.scanned_at", "projects.slug", "projects.title as project_title", "qr_codes.label", "qr_codes.event_tag"])
      .where(onTeamOf(ownerId))
      .orderBy("scans.scanned_at", "desc")
      .orderBy("scans.id", "desc")
      .limit(PER_SOURCE)
      .execute(),
    db
      .selectFrom("intros")
      .innerJoin("contacts", "contacts.id", "intros.contact_id")
      .innerJoin("projects", "projects.id", "intros.project_id")
      .select(["intros.id", "intros.created_at", "contacts.name", "projects.slug", "projects.title as project_title"])
      .where(onTeamOf(ownerId))
      .orderBy("intros.created_at", "desc")
      .orderBy("intros.id", "desc")
      .limit(PER_SOURCE)
      .execute(),
    db
      .selectFrom("signals")
      .innerJoin("projects", "projects.id", "signals.project_id")
      .select([
        "signals.id",
        "signals.created_at",
        "signals.range_label",
        "signals.range_min",
        "signals.range_max",
        "signals.event_source",
        "signals.is_public",
        "projects.slug",
        "projects.title as project_title",
      ])
      .where(onTeamOf(ownerId))
      .orderBy("signals.created_at", "desc")
      .orderBy("signals.id", "desc")
      .limit(PER_SOURCE)
      .execute(),
    db
      .selectFrom("project_updates")
      .innerJoin("projects", "projects.id", "project_updates.project_id")
      .select(["project_updates.id", "project_updates.created_at", "project_updates.body", "projects.slug", "projects.title as project_title"])
      .where(onTeamOf(ownerId))
      .orderBy("project_updates.created_at", "desc")
      .orderBy("project_updates.id", "desc")
      .limit(PER_SOURCE)
      .execute(),
  ]);

  const items: ActivityItem[] = [
    ...scans.map((scan) => ({
      id: `scan-${scan.id}`,
      type: "scan" as const,
      // The feed's wording for QR scans; a visit through the plain link says so.
      title: scan.label ? `New scan from ${scan.label}` : "New visit from your pitch link",
      description: scan.label ? (scan.event_tag ?? "QR code scanned") : "Direct link",
      timestamp: scan.scanned_at,
      projectSlug: scan.slug,
      projectTitle: scan.project_title,
      eventTag: scan.event_tag ?? null,
    })),
    ...intros.map((intro) => ({
      id: `intro-${intro.id}`,
      type: "intro" as const,
      title: `${intro.name} requested intro`,
      description: intro.project_title,
      timestamp: intro.created_at,
      projectSlug: intro.slug,
      projectTitle: intro.project_title,
      eventTag: null,
    })),
    ...signals.map((signal) => ({
      id: `signal-${signal.id}`,
      type: "signal" as const,
      title: signal.is_public
        ? `New interest signal (${formatAmountRange(Number(signal.range_min), signal.range_max === null ? null : Number(signal.range_max))})`
        : "Anonymous signaled interest",
      description: signal.event_source ? `Met at ${signal.event_source}` : `${signal.range_label} interest level`,
      timestamp: signal.created_at,
      projectSlug: signal.slug,
      projectTitle: signal.project_title,
      eventTag: signal.event_source,
    })),
    ...updates.map((update) => ({
      id: `update-${update.id}`,
      type: "update" as const,
      title: "Update posted",
      description: update.body.length > 140 ? `${update.body.slice(0, 139).trimEnd()}…` : update.body,
      timestamp: update.created_at,
      projectSlug: update.slug,
      projectTitle: update.project_title,
      eventTag: null,
    })),
  ];
  return items.sort((a, b) => b.timestamp.localeCompare(a.timestamp)).slice(0, SHOWN);
}
