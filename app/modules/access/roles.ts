import type { MemberRole } from "~/db/schema";

/** A project's roles (decision 61): exactly one owner, and members with one of the other three. */
export type ProjectRole = "owner" | MemberRole;

export const MEMBER_ROLES = ["co-founder", "staff", "viewer"] as const satisfies readonly MemberRole[];

/**
 * What a role may do on a project. Every founder function names one of these and the server checks it.
 * - view: the project's analytics, leads, QR codes and updates, read-only
 * - addresses: the e-mail addresses of the project's leads (a viewer reads leads without them)
 * - booth: the booth screen and its stream
 * - triage: a lead's status, temperature, note, replies, calls and people met in person
 * - export: the contacts CSV and vCards
 * - edit: the project's details, QR codes, print sheets, updates and booth links
 * - settings: Lead settings (question, Slack, webhooks, template, test mail) and held submissions
 * - team: inviting, removing and re-assigning members
 * - own: deleting the project and handing its ownership on
 */
export type ProjectAction = "view" | "addresses" | "booth" | "triage" | "export" | "edit" | "settings" | "team" | "own";

const ALLOWED: Record<ProjectAction, readonly ProjectRole[]> = {
  view: ["owner", "co-founder", "staff", "viewer"],
  addresses: ["owner", "co-founder", "staff"],
  booth: ["owner", "co-founder", "staff"],
  triage: ["owner", "co-founder", "staff"],
  export: ["owner", "co-founder"],
  edit: ["owner", "co-founder"],
  settings: ["owner", "co-founder"],
  team: ["owner"],
  own: ["owner"],
};

export function roleAllows(role: ProjectRole, action: ProjectAction): boolean {
  return ALLOWED[action].includes(role);
}

export const ROLE_LABELS: Record<ProjectRole, string> = {
  owner: "Owner",
  "co-founder": "Co-founder",
  staff: "Staff",
  viewer: "Viewer",
};

export const ROLE_DESCRIPTIONS: Record<MemberRole, string> = {
  "co-founder": "Everything but deleting the project, the team and ownership",
  staff: "Booth screen, people met in person, lead status, notes and replies",
  viewer: "Reads analytics and leads without their contact addresses; no export",
};

export function roleRefusedMessage(role: ProjectRole): string {
  return `Your role on this project (${ROLE_LABELS[role]}) does not allow this.`;
}
