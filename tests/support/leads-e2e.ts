// Helpers for founders' and visitors' form posts over HTTP, as the pages' forms post them: a founder's post with
// their session, and a visitor acting on the pitch page through a QR code.
import { nextClientAddress } from "./clients";
import type { AppServer } from "./app-server";

export function founderPost(app: AppServer, cookie: string, pathname: string, fields: Record<string, string>) {
  return fetch(`${app.url}${pathname}`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: app.url, cookie, "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": nextClientAddress() },
    body: new URLSearchParams(fields),
  });
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
