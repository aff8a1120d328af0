// Helpers for the lead inbox's end-to-end test (tests/e2e/lead-inbox.test.ts) and its screenshots: a founder with
// a project and QR codes made over HTTP, and visitors acting on the pitch page as its forms post.
import { nextClientAddress } from "../e2e/support";
import type { AppServer } from "./app-server";
import { openDatabase } from "./pitch-e2e";

export function founderPost(app: AppServer, cookie: string, pathname: string, fields: Record<string, string>) {
  return fetch(`${app.url}${pathname}`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: app.url, cookie, "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": nextClientAddress() },
    body: new URLSearchParams(fields),
  });
}

/** A published project with the default tiers and one QR code per event; returns ids and the tracked codes. */
export async function createProjectWithCodes(app: AppServer, cookie: string, title: string, events: { label: string; eventTag: string }[]) {
  const slug = `${title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${Date.now().toString(36)}`;
  const created = await founderPost(app, cookie, "/project/create", {
    title,
    slug,
    oneLiner: "Solar cold rooms for clinics",
    status: "published",
    metrics: "[]",
    problemPoints: "[]",
    solutionPoints: "[]",
    tiers: JSON.stringify([
      { rangeLabel: "Angel", rangeMin: 5000, rangeMax: 25000, perks: [] },
      { rangeLabel: "Lead", rangeMin: 250000, rangeMax: null, perks: [] },
    ]),
  });
  if (created.status !== 302) throw new Error(`project create answered ${created.status}: ${await created.text()}`);
  const projectId = new URL(created.headers.get("location")!, app.url).pathname.split("/")[2]!;
  for (const event of events) {
    const qr = await founderPost(app, cookie, `/project/${projectId}/edit`, { intent: "create-qr", ...event });
    if (qr.status !== 200) throw new Error(`QR create answered ${qr.status}`);
  }
  const db = openDatabase(app.dataDir);
  try {
    const codes = db.prepare("select id, event_tag as eventTag from qr_codes where project_id = ?").all(projectId) as { id: string; eventTag: string }[];
    const tiers = db.prepare("select id, range_label as label from signal_tiers where project_id = ? order by sort_order").all(projectId) as { id: string; label: string }[];
    return { projectId, slug, codes, tiers };
  } finally {
    db.close();
  }
}

/** A visitor's form post on the pitch page, arriving through a QR code, as the enhanced form sends it. */
export async function visitorAction(app: AppServer, slug: string, qrCodeId: string | null, fields: Record<string, string>) {
  const query = qrCodeId ? `?qr=${encodeURIComponent(qrCodeId)}` : "";
  const response = await fetch(`${app.url}/pitch/${slug}${query}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      origin: app.url,
      "content-type": "application/x-www-form-urlencoded",
      "x-forwarded-for": nextClientAddress(),
      "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148",
    },
    body: new URLSearchParams({ via: "fetch", ...fields }),
  });
  if (response.status >= 300) throw new Error(`visitor ${fields.intent} answered ${response.status}: ${await response.text()}`);
  return response;
}

/** Reads vCards as an importer would: unfolds continuation lines, splits properties, undoes RFC 6350 escaping. */
export function parseVCards(text: string): Record<string, string>[] {
  const cards: Record<string, string>[] = [];
  let card: Record<string, string> | null = null;
  for (const line of text.replace(/\r\n[ \t]/g, "").split("\r\n")) {
    if (line === "BEGIN:VCARD") card = {};
    else if (line === "END:VCARD" && card) {
      cards.push(card);
      card = null;
    } else if (card && line) {
      const colon = line.indexOf(":");
      const name = line.slice(0, colon).split(";")[0]!.toUpperCase();
      const raw = line.slice(colon + 1);
      card[name] = name === "URL" ? raw : raw.replace(/\\(.)/g, (_, char: string) => (char === "n" || char === "N" ? "\n" : char));
    }
  }
  return cards;
}
