import { PRODUCT_NAME } from "~/product";
import type { UnsubscribeLinks } from "./mail-links.server";

/**
 * The one layout of the product's e-mails (`compose`): a letter of blocks, written as plain text plus a simple HTML
 * version of the same words. Everything a visitor typed is escaped in the HTML; header values are made single-line by
 * the outbox. The messages themselves are by audience: `visitor-messages`, `founder-messages`, `account-messages`.
 */
export type Link = { label: string; url: string };
/** A list item is a line of text, optionally with a link under it. */
export type ListItem = string | { text: string; link: Link };
/** `figures`: a titled two-column table of labels and numbers; `stats`: a row of headline numbers with their labels. */
export type Block =
  | { kind: "p"; text: string }
  | { kind: "quote"; text: string }
  | ({ kind: "link" } & Link)
  | { kind: "list"; items: ListItem[] }
  | { kind: "figures"; title: string; rows: [label: string, value: string][] }
  | { kind: "stats"; items: { value: string; label: string }[] };

export type Letter = { heading: string; blocks: Block[]; footer: Block[] };

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

export function blockText(block: Block): string {
  switch (block.kind) {
    case "p":
      return block.text;
    case "quote":
      return block.text
        .split("\n")
        .map((line) => `> ${line}`)
        .join("\n");
    case "link":
      return `${block.label}: ${block.url}`;
    case "list":
      return block.items
        .map((item) => (typeof item === "string" ? item : `${item.text}\n${item.link.label}: ${item.link.url}`))
        .map((item) => `- ${item.replace(/\n/g, "\n  ")}`)
        .join("\n");
    case "figures":
      return [block.title, ...block.rows.map(([label, value]) => `  ${label}: ${value}`)].join("\n");
    case "stats":
      return block.items.map((item) => `${item.value} ${item.label}`).join(" · ");
  }
}

export function blockHtml(block: Block): string {
  const text = (value: string) => escapeHtml(value).replace(/\n/g, "<br>");
  switch (block.kind) {
    case "p":
      return `<p style="margin:0 0 16px">${text(block.text)}</p>`;
    case "quote":
      return `<blockquote style="margin:0 0 16px;padding:12px 16px;border-left:4px solid #4f46e5;background:#f5f5ff;white-space:normal">${text(block.text)}</blockquote>`;
    case "link":
      return `<p style="margin:0 0 16px"><a href="${escapeHtml(block.url)}" style="color:#4f46e5;font-weight:600">${escapeHtml(block.label)}</a></p>`;
    case "list":
      return `<ul style="margin:0 0 16px;padding-left:20px">${block.items.map((item) => `<li style="margin:0 0 8px">${listItemHtml(item, text)}</li>`).join("")}</ul>`;
    case "figures":
      return [
        `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="width:100%;border-collapse:separate;border-spacing:0;margin:0 0 16px;border:1px solid #e2e8f0;border-radius:8px;font-size:15px">`,
        `<tr><th colspan="2" align="left" style="padding:10px 12px;background:#f1f5f9;border-radius:8px 8px 0 0;font-size:15px;text-align:left">${text(block.title)}</th></tr>`,
        ...block.rows.map(
          ([label, value]) =>
            `<tr><td style="padding:7px 12px;border-top:1px solid #e2e8f0;color:#475569">${text(label)}</td><td align="right" style="padding:7px 12px;border-top:1px solid #e2e8f0;font-weight:600;text-align:right;white-space:nowrap">${text(value)}</td></tr>`,
        ),
        "</table>",
      ].join("");
    case "stats":
      return [
        `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="width:100%;border-collapse:collapse;margin:0 0 20px;table-layout:fixed"><tr>`,
        ...block.items.map(
          (item) =>
            `<td align="center" valign="top" style="padding:10px 4px;background:#eef2ff;border:4px solid #ffffff;border-radius:10px;text-align:center"><div style="font-size:24px;font-weight:700;line-height:1.2;color:#312e81">${text(item.value)}</div><div style="font-size:12px;line-height:1.3;color:#475569">${text(item.label)}</div></td>`,
        ),
        "</tr></table>",
      ].join("");
  }
}

export function listItemHtml(item: ListItem, text: (value: string) => string): string {
  if (typeof item === "string") return text(item);
  return `${text(item.text)}<br><a href="${escapeHtml(item.link.url)}" style="color:#4f46e5;font-weight:600">${escapeHtml(item.link.label)}</a>`;
}

export function compose(letter: Letter): { text: string; html: string } {
  const text = [letter.heading, "", ...letter.blocks.map(blockText).flatMap((part) => [part, ""]), "--", ...letter.footer.map(blockText), PRODUCT_NAME].join("\n");
  const html = [
    "<!doctype html>",
    `<html><body style="margin:0;padding:24px;background:#f8fafc;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#0f172a;font-size:16px;line-height:1.5">`,
    `<div style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #e2e8f0;border-radius:12px;padding:24px">`,
    `<p style="margin:0 0 8px;font-size:13px;font-weight:700;color:#4f46e5;letter-spacing:.04em;text-transform:uppercase">${escapeHtml(PRODUCT_NAME)}</p>`,
    `<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3">${escapeHtml(letter.heading)}</h1>`,
    ...letter.blocks.map(blockHtml),
    `<div style="margin-top:24px;padding-top:16px;border-top:1px solid #e2e8f0;font-size:13px;color:#64748b">`,
    ...letter.footer.map(blockHtml),
    "</div></div></body></html>",
  ].join("\n");
  return { text, html };
}

/** RFC 8058 one-click unsubscribe: mail programs POST `List-Unsubscribe=One-Click` to the link. */
export function unsubscribeHeaders(links: UnsubscribeLinks): Record<string, string> {
  return { "List-Unsubscribe": `<${links.oneClickUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
}

