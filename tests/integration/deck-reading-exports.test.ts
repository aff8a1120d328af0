// Deck reading (decision 99) where the founder reads it outside the app: two columns at the end of the contacts CSV,
// the lead's reading in each webhook event, and the deck's line and each listed person's reading in the
// morning-after report (the mail and its preview page alike).
import { text } from "node:stream/consumers";
import type { Kysely } from "kysely";
import pino from "pino";
import { expect, it } from "vitest";
import type { Database } from "~/db/schema";
import { exportContactsCsv } from "~/modules/analytics/contacts-csv.server";
import { submitIntro } from "~/modules/contacts/contacts.server";
import { introSchema } from "~/modules/contacts/intro-form";
import { recordDeckBeats } from "~/modules/deck-reading/record-beats.server";
import { validate } from "~/modules/forms/validation";
import { captureSchema } from "~/modules/leads/capture/capture-form";
import { captureLead } from "~/modules/leads/capture/lead-captures.server";
import { createQrCode } from "~/modules/qr/qr-codes.server";
import { buildYesterdayReport } from "~/modules/reports/morning-report-now.server";
import { MorningReportScheduler } from "~/modules/reports/morning-report.server";
import { recordScans } from "~/modules/scans/scans.server";
import { signalSchema } from "~/modules/signals/signal-form";
import { recordSignal } from "~/modules/signals/signals.server";
import { addWebhookEndpoint, type WebhookPayload } from "~/modules/webhooks/webhooks.server";
import { describeEachDialect } from "../support/databases";
import { beatsOf, createShownDeck, sender } from "../support/deck-reading";
import { createProject, createUser, testMailLinks } from "../support/fixtures";

function parse<S extends Parameters<typeof validate>[0]>(schema: S, input: unknown) {
  const result = validate(schema, input);
  if (!result.ok) throw new Error(`fixture invalid: ${result.formError}`);
  return result.data;
}

const visitor = (viewer: string | null, at?: string) => ({
  userId: null,
  identity: { viewerFingerprint: viewer, addressHash: null },
  ...(at ? { sent: { at: new Date(at) } } : {}),
});

/** `viewer` reads the project's deck as `[page, seconds]` dwells, in one view opened at `at` (now unless given). */
async function read(db: Kysely<Database>, where: { project: string; deck: string }, viewer: string | null, dwells: [number, number][], options: { at?: string; audience?: "team" } = {}) {
  await recordDeckBeats(db, beatsOf(where, dwells), sender(viewer, options.audience), options.at ? new Date(options.at) : undefined);
}

async function intro(db: Kysely<Database>, projectId: string, name: string, viewer: string | null, at?: string) {
  const email = `${name.split(" ")[0]!.toLowerCase()}-${projectId.slice(0, 6)}@example.com`;
  await submitIntro(db, testMailLinks, projectId, parse(introSchema, { name, email, note: "Keen to talk" }), visitor(viewer, at));
  return email;
}

describeEachDialect("deck reading in the founder's exports and messages", (getDb) => {
  it("ends the contacts CSV with each person's pages and seconds read of the deck on the page, 0 and 0 for none", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    const old = await createShownDeck(db, project, 3);
    await read(db, { project: project.id, deck: old }, "ada", [[1, 60]]);
    const deck = await createShownDeck(db, project, 5);
    await read(db, { project: project.id, deck }, "ada", [[1, 8], [2, 15.4], [3, 4]]);
    // The team's reading on Ada's phone is shown apart, never hers.
    await read(db, { project: project.id, deck }, "ada", [[4, 90]], { audience: "team" });
    await intro(db, project.id, "Ada Reader", "ada");
    await read(db, { project: project.id, deck }, "ada", [[3, 2]]);
    await intro(db, project.id, "Bo Skimmer", "bo");
    await captureLead(db, project.ownerId, project.id, parse(captureSchema, { key: crypto.randomUUID(), codeId: "plain", name: "Kenji Met", email: `kenji-${project.id.slice(0, 6)}@example.com` }));

    const csv = await exportContactsCsv(db, project.ownerId, project.id);
    // No cell here holds a comma, a quote or a line break: each line splits on its commas.
    const [header, ...rows] = (await text(csv.body)).slice(1).trimEnd().split("\r\n").map((line) => line.split(","));
    expect(header!.slice(-4)).toEqual(["Met in person", "Phone", "Pages read", "Seconds read"]);
    const cells = Object.fromEntries(rows.map((row) => [row[0], row.slice(-2)]));
    // Page 3 twice (4 s, then 2 s after her intro) is one page; 8 + 15.4 + 4 + 2 seconds round to 29.
    expect(cells).toEqual({ "Ada Reader": ["3", "29"], "Bo Skimmer": ["0", "0"], "Kenji Met": ["0", "0"] });
  });

  it("carries the lead's reading as it stands in each webhook event, and null before they read any", async () => {
    const { db } = getDb();
    const project = await createProject(db);
    await addWebhookEndpoint(db, project.ownerId, project.id, { url: "http://127.0.0.1:9/hook" }, { allowPrivateTargets: true });
    await intro(db, project.id, "Cy Early", "cy");
    const deck = await createShownDeck(db, project, 4);
    await read(db, { project: project.id, deck }, "ada", [[1, 10], [2, 20.6]]);
    const email = await intro(db, project.id, "Ada Reader", "ada");
    await read(db, { project: project.id, deck }, "ada", [[3, 5], [4, 5]]);
    await recordSignal(db, testMailLinks, project.id, parse(signalSchema, { tierId: project.tiers[1]!.id, name: "Ada Reader", email, message: "In" }), visitor("ada"));
    await intro(db, project.id, "Bo Skimmer", "bo");

    const payloads = (await db.selectFrom("webhook_deliveries").select("payload").where("project_id", "=", project.id).execute()).map((row) => JSON.parse(row.payload) as WebhookPayload);
    const decks = payloads.map((payload) => [payload.lead.name, payload.type, payload.lead.deck]).sort((a, b) => `${a[0]}${a[1]}`.localeCompare(`${b[0]}${b[1]}`));
    expect(decks).toEqual([
      ["Ada Reader", "lead.intro", { pagesRead: 2, pageCount: 4, secondsRead: 31 }],
      ["Ada Reader", "lead.signal", { pagesRead: 4, pageCount: 4, secondsRead: 41 }],
      ["Bo Skimmer", "lead.intro", null],
      ["Cy Early", "lead.intro", null],
    ]);
  });

  it("gives the report day's readers of the deck, and each listed person's reading, in the mail and its preview", async () => {
    const { db } = getDb();
    const ownerEmail = `owner-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const ownerId = await createUser(db, { email: ownerEmail });
    const title = `Harbor ${crypto.randomUUID().slice(0, 6)}`;
    const project = await createProject(db, { ownerId, title });
    const code = await createQrCode(db, ownerId, project.id, { label: "Booth", eventTag: "Demo Day" });
    const deck = await createShownDeck(db, project, 4);
    const where = { project: project.id, deck };
    const day = "2026-09-14";
    await recordScans(db, ["ada", "bo"].map((viewer) => ({ projectId: project.id, qrCodeId: code.id, viewerFingerprint: viewer })), undefined, new Date(`${day}T10:00:00.000Z`));

    // Dee read the day before: not this report's reader, though her reading stays hers.
    await read(db, where, "dee", [[1, 30], [2, 30], [3, 30], [4, 30]], { at: "2026-09-13T18:00:00.000Z" });
    // Ada reads to the end, then again a little in a second view: one reader, 1 min 45 s.
    await read(db, where, "ada", [[1, 30], [2, 40], [3, 20], [4, 10]], { at: `${day}T10:05:00.000Z` });
    await read(db, where, "ada", [[1, 5]], { at: `${day}T11:00:00.000Z` });
    await intro(db, project.id, "Ada Lovelace", "ada", `${day}T10:30:00.000Z`);
    await read(db, where, "bo", [[1, 20], [2, 10]], { at: `${day}T12:00:00.000Z` });
    // A browser without a cookie is a reader of its own; the team's reading is never counted.
    await read(db, where, null, [[1, 50]], { at: `${day}T13:00:00.000Z` });
    await read(db, where, "team-phone", [[1, 100], [2, 100], [3, 100], [4, 100]], { at: `${day}T14:00:00.000Z`, audience: "team" });
    // Tomorrow's reader belongs to tomorrow's report.
    await read(db, where, "eve", [[1, 5]], { at: "2026-09-15T08:00:00.000Z" });
    // Met in person, Dee's lead is not her viewer's (her phone sent no form): no reading beside her.
    await captureLead(
      db,
      ownerId,
      project.id,
      parse(captureSchema, { key: crypto.randomUUID(), codeId: code.id, name: "Dee Met", email: `dee-${project.id.slice(0, 6)}@example.com`, temperature: "hot" }),
      new Date(`${day}T16:00:00.000Z`),
    );

    const at = "2026-09-15T09:05:00.000Z";
    await new MorningReportScheduler(db, testMailLinks, { hour: 9 }, pino({ level: "silent" }), { clock: () => new Date(at) }).runOnce();
    const [mail] = await db.selectFrom("mail_outbox").select(["text_body", "html_body"]).where("kind", "=", "morning-report").where("subject", "like", `%— ${title}`).execute();
    const deckLine = "Deck: 3 readers, 1 read to the end, median 50 s";
    expect(mail!.text_body).toContain(deckLine);
    expect(mail!.text_body).toMatch(/- Ada Lovelace, waiting [^\n]+ · read 4 of 4 pages, 1 min 45 s\n {2}Answer: /);
    expect(mail!.text_body).toMatch(/- Dee Met \(Hot\), met at Booth · Demo Day\n/);
    expect(mail!.html_body).toContain(deckLine);

    const preview = await buildYesterdayReport(db, testMailLinks, { id: ownerId, email: ownerEmail }, project.id, new Date(at));
    expect(preview.mail.html).toContain(deckLine);
    expect(preview.mail.html).toContain("Ada Lovelace, waiting");
    expect(preview.mail.html).toContain("read 4 of 4 pages, 1 min 45 s");
  });

  it("says nobody read the deck on a day without readers, and says nothing of a deck when the page has none", async () => {
    const { db } = getDb();
    const ownerEmail = `owner-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const ownerId = await createUser(db, { email: ownerEmail });
    const project = await createProject(db, { ownerId });
    const now = new Date("2026-09-21T10:00:00.000Z");
    const bare = await buildYesterdayReport(db, testMailLinks, { id: ownerId, email: ownerEmail }, project.id, now);
    expect(bare.mail.text).not.toContain("Deck:");
    await createShownDeck(db, project, 3);
    const unread = await buildYesterdayReport(db, testMailLinks, { id: ownerId, email: ownerEmail }, project.id, now);
    expect(unread.mail.text).toContain("Deck: nobody read it this period.");
  });
});
