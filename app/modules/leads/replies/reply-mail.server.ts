import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { qrCodeIdOfSource } from "~/modules/analytics/sources.server";
import { formatFounderDate } from "~/modules/time/founder-dates";
import { escapeHtml } from "~/modules/mail/letter.server";
import type { OutgoingMail } from "~/modules/mail/outbox.server";
import { PRODUCT_NAME } from "~/product";

/** Why a lead gets the founder's reply: what they did on the pitch page, else where the team met them. */
export type ReplyReason =
  | { kind: "intro" | "signal" | "subscribe" }
  | { kind: "met"; by: string; event: string | null; at: string }
  | { kind: "lead" };

type LeadActions = { id: string; did_intro: boolean; did_signal: boolean; did_subscribe: boolean };

/** A lead that never sent a form of the pitch page themselves: only met in person, or typed in by the team. */
export const isMetOnly = (lead: LeadActions) => !lead.did_intro && !lead.did_signal && !lead.did_subscribe;

/** The reason the reply names: their own request first (an intro, then a signal, then following), else the latest meeting. */
export async function replyReasonOf(db: Kysely<Database>, projectId: string, lead: LeadActions): Promise<ReplyReason> {
  if (lead.did_intro) return { kind: "intro" };
  if (lead.did_signal) return { kind: "signal" };
  if (lead.did_subscribe) return { kind: "subscribe" };
  const capture = await db
    .selectFrom("lead_captures")
    .leftJoin("users", "users.id", "lead_captures.added_by")
    .select(["lead_captures.source", "lead_captures.created_at", "users.name", "users.email"])
    .where("lead_captures.project_id", "=", projectId)
    .where("lead_captures.lead_id", "=", lead.id)
    .orderBy("lead_captures.created_at", "desc")
    .orderBy("lead_captures.id", "desc")
    .executeTakeFirst();
  if (!capture) return { kind: "lead" };
  const codeId = qrCodeIdOfSource(capture.source);
  const code = codeId ? await db.selectFrom("qr_codes").select("event_tag").where("id", "=", codeId).executeTakeFirst() : undefined;
  return { kind: "met", by: capture.name?.trim() || capture.email || "a member of the team", event: code?.event_tag?.trim() || null, at: capture.created_at };
}

function reasonLine(reason: ReplyReason, projectTitle: string, timeZone: string): string {
  switch (reason.kind) {
    case "intro":
      return `you asked for an intro on the pitch page of ${projectTitle}`;
    case "signal":
      return `you signalled interest on the pitch page of ${projectTitle}`;
    case "subscribe":
      return `you follow the updates of ${projectTitle}`;
    case "met":
      return `you met ${reason.by} of ${projectTitle}${reason.event ? ` at ${reason.event}` : ""} on ${formatFounderDate(reason.at, timeZone)}, who added your address`;
    case "lead":
      return `${projectTitle} has your address as a contact`;
  }
}

export type ReplyMailInput = {
  kind: string;
  to: string;
  subject: string;
  /** What the founder wrote, with the meeting's line when one is proposed. */
  text: string;
  founder: { name: string; email: string; timeZone: string };
  projectTitle: string;
  reason: ReplyReason;
  calendarIcs: string | null;
};

/**
 * The founder's reply as a mail from `MAIL_FROM`: their text as written, opened by who wrote it and closed by who
 * they are and why the recipient gets it, in the text and the HTML alike. It never reads as a message of ours: the
 * opening line names the founder and the project, and the closing says we did not write it.
 */
export function replyMail(input: ReplyMailInput): OutgoingMail {
  const sender = input.founder.name.trim() || input.founder.email;
  const opening = `${sender} of ${input.projectTitle} wrote to you:`;
  const closing = [
    `This message is from ${sender} (${input.founder.email}) of ${input.projectTitle}, sent with ${PRODUCT_NAME}. ${PRODUCT_NAME} did not write it.`,
    `You get it because ${reasonLine(input.reason, input.projectTitle, input.founder.timeZone)}.`,
    `Reply to this e-mail to answer ${sender} directly.`,
  ];
  const text = [opening, "", input.text, "", "--", ...closing].join("\n");
  const lines = (value: string) => escapeHtml(value).replace(/\r?\n/g, "<br>");
  const html = [
    "<!doctype html>",
    `<html><body style="margin:0;padding:24px;background:#ffffff;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#0f172a;font-size:16px;line-height:1.5">`,
    `<div style="max-width:560px;margin:0 auto">`,
    `<p style="margin:0 0 16px;font-size:14px;color:#475569">${lines(opening)}</p>`,
    `<p style="margin:0 0 16px">${lines(input.text)}</p>`,
    `<div style="margin-top:24px;padding-top:16px;border-top:1px solid #e2e8f0;font-size:13px;color:#64748b">`,
    ...closing.map((line) => `<p style="margin:0 0 8px">${lines(line)}</p>`),
    "</div></div></body></html>",
  ].join("\n");
  return { kind: input.kind, to: input.to, subject: input.subject, text, html, replyTo: input.founder.email, calendarIcs: input.calendarIcs };
}
