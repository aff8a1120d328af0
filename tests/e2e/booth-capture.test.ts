// 'Add a person' at the booth (decision 62), in Chromium on a phone (390x844): a staff member of
// the team (invited by the owner, joined through the link) scans a vCard QR code held up to the camera (a fake camera playing a .y4m video made here from a QR code drawn
// with the `qrcode` package), then adds a person typed in while offline, sees "not yet synced", goes online and sees
// them saved once; the owner's inbox shows both, once each, "Met in person at …" and "added by …". Past the
// account's 60 people an hour (decision 77), the next one waits on the phone and the list says until when.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import QRCode from "qrcode";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchTestBrowser, PHONE } from "../support/chromium.js";
import { insertProject } from "../support/pitch-e2e";
import { withWritableDb } from "../support/test-db";
import { withAppServer } from "../support/with-app-server";
import { signedInContext, uniqueEmail } from "../support/sign-up";
import { founderPost } from "../support/leads-e2e";
import { cookieHeader, waitForHydration } from "../support/clients";

const VCARD = ["BEGIN:VCARD", "VERSION:3.0", "N:Lovelace;Ada;;;", "FN:Ada Lovelace", "TITLE:CTO", "ORG:Analytical Engines", "EMAIL;TYPE=INTERNET:ada.lovelace@example.com", "END:VCARD"].join("\r\n");

const WIDTH = 640;
const HEIGHT = 480;

/**
 * A YUV4MPEG2 video (4:2:0) of a QR code, black modules on white with a quiet zone, centred: what Chromium's fake
 * camera plays (in a loop) to a page that asks for the camera.
 */
function qrVideo(text: string, frames = 3): Buffer {
  const qr = QRCode.create(text, { errorCorrectionLevel: "M" });
  const size = qr.modules.size;
  const scale = Math.floor((HEIGHT - 40) / (size + 8));
  const side = (size + 8) * scale;
  const left = Math.floor((WIDTH - side) / 2);
  const top = Math.floor((HEIGHT - side) / 2);
  const luma = Buffer.alloc(WIDTH * HEIGHT, 235);
  for (let row = 0; row < size; row++) {
    for (let column = 0; column < size; column++) {
      if (!qr.modules.get(row, column)) continue;
      for (let y = 0; y < scale; y++) {
        const start = (top + (row + 4) * scale + y) * WIDTH + left + (column + 4) * scale;
        luma.fill(16, start, start + scale);
      }
    }
  }
  const chroma = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from("FRAME\n"), luma, chroma]);
  return Buffer.concat([Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F30:1 Ip A1:1 C420jpeg\n`), ...Array.from({ length: frames }, () => frame)]);
}

const app = withAppServer();
let browser: Browser;
let videoDir: string;

beforeAll(async () => {
  videoDir = fs.mkdtempSync(path.join(os.tmpdir(), "pitchqr-camera-"));
  const video = path.join(videoDir, "vcard.y4m");
  fs.writeFileSync(video, qrVideo(VCARD));
  // A browser of this file's own: its camera is the video above, and the camera permission is granted without a prompt.
  browser = await launchTestBrowser(["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream", `--use-file-for-fake-video-capture=${video}`]);
});

afterAll(async () => {
  await browser?.close();
  if (videoDir) fs.rmSync(videoDir, { recursive: true, force: true });
});

const waiting = (page: Page) => page.getByRole("list", { name: "People not yet synced" });

describe("capture at the booth", () => {
  it("adds a person from their vCard QR code and one typed offline, each once, to the inbox; past 60 an hour the person waits, and the list says until when", { timeout: 120_000 }, async () => {
    const ownerEmail = uniqueEmail("capture-owner");
    const { context: ownerContext, user: owner } = await signedInContext(browser, app, ownerEmail, { viewport: PHONE });
    const project = await insertProject(app.dataDir, { title: "Harbor Cold Chain", ownerId: owner.id, qrCodes: [{ label: "Booth", eventTag: "demoday-2026" }] });
    const email = uniqueEmail("capture-staff");
    const { context, user: staff } = await signedInContext(browser, app, email, { viewport: PHONE, hasTouch: true, isMobile: true });
    await withWritableDb(app, (db) => db.updateTable("users").set({ name: "Maya Staff" }).where("id", "=", staff.id).execute());

    // The owner invites them as staff; they open the mailed link on their phone and join (decision 61).
    const invited = await founderPost(app, await cookieHeader(ownerContext), `/project/${project.id}/team`, { intent: "invite", email, role: "staff" });
    expect(invited.status).toBe(200);
    const [invitation] = await app.db.selectFrom("mail_outbox").select("text_body").where("kind", "=", "team-invitation").where("recipient", "=", email).execute();
    const page = await context.newPage();
    await page.goto(`${app.url}${/\/team\/join\?token=[A-Za-z0-9_-]+/.exec(invitation!.text_body)![0]}`);
    await waitForHydration(page);
    await page.getByRole("button", { name: "Join the team" }).click();
    await page.waitForURL(/\/leads$/);

    await page.goto(`${app.url}/project/${project.id}/booth`);
    await waitForHydration(page);
    await page.getByText("Scan to see the pitch · Booth · demoday-2026").waitFor();

    // Scan: the sheet fills in what the card says, and the founder confirms.
    await page.getByRole("button", { name: "Add a person" }).click();
    const sheet = page.getByRole("dialog", { name: "Add a person" });
    await sheet.getByRole("button", { name: "Scan their QR code" }).click();
    await sheet.getByText("Read from their contact card. Check the details, then save.").waitFor({ timeout: 20_000 });
    expect(await sheet.getByLabel("Name").inputValue()).toBe("Ada Lovelace");
    expect(await sheet.getByLabel("E-mail").inputValue()).toBe("ada.lovelace@example.com");
    expect(await sheet.getByLabel("Note (one line)").inputValue()).toBe("CTO, Analytical Engines");
    await sheet.getByText("Hot", { exact: true }).click();
    await sheet.getByRole("button", { name: "Save person" }).click();
    await page.getByRole("status").filter({ hasText: "Saved: Ada Lovelace added" }).waitFor();
    await sheet.waitFor({ state: "detached" });

    // Offline: kept on the phone, shown as not yet synced, nothing on the server.
    await context.setOffline(true);
    await page.getByRole("button", { name: "Add a person" }).click();
    await sheet.getByLabel("Name").fill("Grace Hopper");
    await sheet.getByLabel("E-mail").fill("Grace.Hopper@Example.com");
    await sheet.getByText("Warm", { exact: true }).click();
    await sheet.getByLabel("Note (one line)").fill("Wants the deck");
    await sheet.getByLabel("LinkedIn").fill("https://www.linkedin.com/in/grace-hopper");
    await sheet.getByRole("button", { name: "Save person" }).click();
    await waiting(page).getByText("Grace Hopper — not yet synced").waitFor();
    expect(await app.db.selectFrom("lead_captures").select("id").where("email", "=", "grace.hopper@example.com").execute()).toEqual([]);

    // Back online: sent once, and gone from the list.
    await context.setOffline(false);
    await page.getByRole("status").filter({ hasText: "Saved: Grace Hopper added" }).waitFor({ timeout: 35_000 });
    await waiting(page).waitFor({ state: "detached" });
    const captures = await app.db
      .selectFrom("lead_captures")
      .select(["email", "source", "added_by", "temperature"])
      .where("project_id", "=", project.id)
      .orderBy("created_at")
      .execute();
    expect(captures).toEqual([
      { email: "ada.lovelace@example.com", source: `qr:${project.qrCodeIds[0]}`, added_by: staff.id, temperature: "hot" },
      { email: "grace.hopper@example.com", source: `qr:${project.qrCodeIds[0]}`, added_by: staff.id, temperature: "warm" },
    ]);
    expect(await app.db.selectFrom("leads").select("email").where("project_id", "=", project.id).orderBy("email").execute()).toEqual([{ email: "ada.lovelace@example.com" }, { email: "grace.hopper@example.com" }]);

    // The same capture sent again (a phone that never heard the answer): the same answer, nothing new. Its key with
    // other fields is refused; without a session, nothing is taken.
    const [grace] = await app.db.selectFrom("lead_captures").select(["idempotency_key", "lead_id"]).where("email", "=", "grace.hopper@example.com").execute();
    const again = {
      key: grace!.idempotency_key,
      codeId: project.qrCodeIds[0]!,
      name: "Grace Hopper",
      email: "grace.hopper@example.com",
      linkedinUrl: "https://www.linkedin.com/in/grace-hopper",
      temperature: "warm",
      note: "Wants the deck",
    };
    const cookie = await cookieHeader(context);
    const repeat = await founderPost(app, cookie, `/project/${project.id}/leads/capture`, again);
    expect(repeat.status).toBe(200);
    expect(await repeat.json()).toMatchObject({ ok: true, leadId: grace!.lead_id, message: "Grace Hopper added" });
    const changed = await founderPost(app, cookie, `/project/${project.id}/leads/capture`, { ...again, note: "Something else" });
    expect(changed.status).toBe(422);
    expect(await changed.json()).toMatchObject({ ok: false, formError: expect.stringContaining("already used") });
    const signedOut = await founderPost(app, "", `/project/${project.id}/leads/capture`, { ...again, key: crypto.randomUUID() });
    expect(signedOut.status).toBe(401);
    expect(await app.db.selectFrom("lead_captures").select("id").where("project_id", "=", project.id).execute()).toHaveLength(2);

    // The owner's inbox: each person once, where and by whom they were met.
    const ownerPage = await ownerContext.newPage();
    await ownerPage.goto(`${app.url}/project/${project.id}/leads`);
    await waitForHydration(ownerPage);
    // The header says what it counts: nobody acted yet, two were met in person.
    await ownerPage.getByText(/^0 people asked, followed or signaled · 2 met in person( · \d+ new since you last looked)?$/).waitFor();
    for (const name of ["Ada Lovelace", "Grace Hopper"]) {
      // The card's heading also says "New" (they arrived since the founder last looked).
      const card = ownerPage.getByRole("listitem").filter({ has: ownerPage.getByRole("heading", { name }) });
      expect(await card.count()).toBe(1);
      const met = card.locator("[data-met-in-person]");
      expect(await met.count()).toBe(1);
      expect(await met.innerText()).toMatch(/^Met in person at Booth · demoday-2026 · added by Maya Staff · /);
    }
    // Met in person, they wait for nobody: no clock, no 'Answered in 0 min', until the founder says they owe a follow-up.
    const adaCard = ownerPage.getByRole("listitem").filter({ has: ownerPage.getByRole("heading", { name: "Ada Lovelace" }) });
    await adaCard.getByText("Met in person: not waiting for an answer.").waitFor();
    expect(await adaCard.getByText(/Answered in/).count()).toBe(0);
    await adaCard.getByRole("button", { name: "Awaiting my follow-up" }).click();
    await adaCard.getByText(/^Waiting /).waitFor();
    expect(await adaCard.getByText("Met in person: not waiting for an answer.").count()).toBe(0);
    const graceLinkedIn = ownerPage.locator("[data-met-in-person]").getByRole("link", { name: "LinkedIn" });
    expect(await graceLinkedIn.getAttribute("href")).toBe("https://www.linkedin.com/in/grace-hopper");

    // Analytics: beside the booth's code, apart from its visitors (none of whom acted).
    await ownerPage.goto(`${app.url}/project/${project.id}/analytics`);
    const events = ownerPage.getByRole("list", { name: "Events" });
    const boothRow = events.getByRole("listitem").filter({ hasText: "demoday-2026" });
    await boothRow.getByText("2 met in person").waitFor();
    expect(await boothRow.getByText("People who acted", { exact: true }).locator("xpath=following-sibling::dd").innerText()).toBe("0");

    await page.goto(`${app.url}/project/${project.id}/leads`);
    await waitForHydration(page);
    // The inbox has 'Add a person' too, where the founder says where they met (the booth's code first).
    await page.getByRole("button", { name: "Add a person" }).click();
    const where = page.getByRole("dialog", { name: "Add a person" }).getByLabel("Where you met");
    expect(await where.locator("option:checked").innerText()).toBe("Booth · demoday-2026");

    // 60 people an hour per account (decision 77): past them the sheet's person waits on the phone, and the list
    // says why and from when it is sent; nothing is saved.
    for (let i = 0; i < 58; i++) {
      const fields = { key: crypto.randomUUID(), codeId: "plain", name: `Walk-up ${i}`, email: `walk-up-${i}-${crypto.randomUUID().slice(0, 6)}@example.com`, linkedinUrl: "", temperature: "", note: "" };
      expect((await founderPost(app, cookie, `/project/${project.id}/leads/capture`, fields)).status).toBe(200);
    }
    const sheetOnInbox = page.getByRole("dialog", { name: "Add a person" });
    await sheetOnInbox.getByLabel("Name").fill("One Too Many");
    await sheetOnInbox.getByLabel("E-mail").fill("one.too.many@example.com");
    await sheetOnInbox.getByRole("button", { name: "Save person" }).click();
    await waiting(page).getByText("One Too Many — not yet synced").waitFor();
    await waiting(page)
      .getByText(/^Not saved yet: You have added 60 people in the last hour, the most one account may add\. You can add more from .+ \(UTC\)\. They wait on this device/)
      .waitFor();
    expect(await app.db.selectFrom("lead_captures").select("id").where("email", "=", "one.too.many@example.com").execute()).toEqual([]);
    await Promise.all([context.close(), ownerContext.close()]);
  });
});
