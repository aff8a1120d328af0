// Push where the founder looks (decision 56), in Chromium on a phone, against the built app with a
// push service of the test's own (on 127.0.0.1, named by PUSH_SERVICE_ORIGINS): the founder's phone is subscribed
// as its browser would post it (a headless browser's own subscribe would need the internet), a visitor requests an
// intro through a QR code, the push service receives the encrypted push, the test decrypts it with the phone's keys
// and opens its link; a 410 from the push service removes the phone.
import fs from "node:fs";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { showPlainDeck } from "../support/deck-reading-e2e";
import { PHONE } from "../support/chromium.js";
import { setUpAppInBrowser } from "../support/e2e-app";
import { newVisitor, openPitchDialog, readThePage, insertProject, visitorUserAgent } from "../support/pitch-e2e";
import { browserSubscription, startTestPushService } from "../support/push-service";
import { signedInContext, uniqueEmail } from "../support/sign-up";
import { collectPageErrors, waitForEnhancement, waitForHydration } from "../support/clients";

let pushService: Awaited<ReturnType<typeof startTestPushService>>;
const gone = new Set<string>();
beforeAll(async () => {
  fs.mkdirSync("tmp/deck-reading", { recursive: true });
  pushService = await startTestPushService((push) => (gone.has(push.path) ? 410 : 201));
});
afterAll(async () => {
  await pushService?.close();
});

const e2e = setUpAppInBrowser({ env: () => ({ PUSH_SERVICE_ORIGINS: pushService.origin }) });

const devicesOf = (userId: string) => e2e.db.selectFrom("push_subscriptions").select("device").where("user_id", "=", userId).execute();

it("pushes a visitor's intro to the founder's phone, whose tap opens that lead; a 410 removes the phone", { timeout: 120_000 }, async () => {
  const email = uniqueEmail("push");
  const { context, user: { id: ownerId } } = await signedInContext(e2e.browser, e2e.app, email, { viewport: PHONE });
  const project = await insertProject(e2e.app.dataDir, { ownerId, title: "Harbor Cold Chain", qrCodes: [{ label: "Demo Day hall A", eventTag: null }] });
  const settingsUrl = `${e2e.app.url}/project/${project.id}/leads/settings`;
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  try {
    await page.goto(settingsUrl);
    await waitForHydration(page);
    // The workspace's push-only worker lives under /project/, apart from the pitch pages' and the saved list's.
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    expect(scope).toBe(`${e2e.app.url}/project/`);
    await page.locator("[data-push-state=off]").waitFor();
    expect(await page.locator('link[rel="manifest"]').getAttribute("href")).toBe("/project/manifest.webmanifest");
    await page.screenshot({ path: "/tmp/push-settings-390.png", fullPage: true });

    const post = (fields: Record<string, string>) => context.request.post(settingsUrl, { form: fields, headers: { Origin: e2e.app.url }, maxRedirects: 0 });
    // A foreign push service: refused with a clear message, nothing stored.
    const foreign = browserSubscription("https://push.evil.example");
    const refused = await post({ intent: "push-on", ...foreign.input });
    expect(refused.status()).toBe(400);
    expect(await refused.text()).toContain("push service is not one we deliver to");
    expect(await devicesOf(ownerId)).toEqual([]);

    const phone = browserSubscription(pushService.origin, "Chrome on Android");
    expect((await post({ intent: "push-on", ...phone.input })).ok()).toBe(true);
    expect(await devicesOf(ownerId)).toEqual([{ device: "Chrome on Android" }]);

    const visitor = await newVisitor(e2e.browser, { viewport: PHONE, userAgent: visitorUserAgent(e2e.browser) });
    try {
      await visitor.page.goto(`${e2e.app.url}/pitch/${project.slug}?qr=${project.qrCodeIds[0]}`);
      await waitForEnhancement(visitor.page);
      await readThePage(visitor.page, e2e.app.dataDir);
      const intro = await openPitchDialog(visitor.page, "Request Intro");
      await intro.getByLabel("Name", { exact: true }).fill("Ana Kovač");
      await intro.getByLabel("Email", { exact: true }).fill("ana.kovac@example.com");
      await intro.getByLabel("Note", { exact: true }).fill("Cold chain for clinics in Split");
      await intro.getByRole("button", { name: "Request Intro" }).click();
      await intro.getByText("Intro request sent!").waitFor();
    } finally {
      await visitor.context.close();
    }

    const push = await pushService.waitForPush(phone.path);
    const message = JSON.parse(phone.decrypt(push.body)) as { title: string; body: string; url: string };
    const { id: leadId } = await e2e.db.selectFrom("leads").select("id").where("project_id", "=", project.id).where("email", "=", "ana.kovac@example.com").executeTakeFirstOrThrow();
    expect(message.title).toBe("Ana Kovač requested an intro — Demo Day hall A");
    expect(message.body).toBe("Harbor Cold Chain");
    expect(message.url).toBe(`${e2e.app.url}/project/${project.id}/leads?lead=${leadId}`);

    // The tap: the inbox opens on that lead, marked.
    await page.goto(message.url);
    await waitForHydration(page);
    await page.locator(`#lead-${leadId}[aria-current="true"]`).getByText("Ana Kovač").first().waitFor();

    // The push service forgot the phone: the next push is answered 410 and the phone is removed.
    gone.add(phone.path);
    const follower = await newVisitor(e2e.browser, { viewport: PHONE, userAgent: visitorUserAgent(e2e.browser) });
    try {
      await follower.page.goto(`${e2e.app.url}/pitch/${project.slug}`);
      await waitForEnhancement(follower.page);
      await readThePage(follower.page, e2e.app.dataDir);
      const follow = await openPitchDialog(follower.page, "Follow Updates");
      await follow.getByLabel("Name", { exact: true }).fill("Bo Lind");
      await follow.getByLabel("Email", { exact: true }).fill("bo.lind@example.com");
      await follow.getByRole("checkbox").first().check();
      await follow.getByRole("button", { name: "Follow Updates" }).click();
      await follower.page.getByText("You're on the list—weekly Friday digest, unsub anytime.").waitFor();
    } finally {
      await follower.context.close();
    }
    await expect.poll(() => devicesOf(ownerId), { timeout: 20_000 }).toEqual([]);
    expect(pushService.received.filter((entry) => entry.path === phone.path)).toHaveLength(2);
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
});

it("pushes \"… is reading your deck\" when a person who asked for an intro opens the deck", { timeout: 120_000 }, async () => {
  const { context, user } = await signedInContext(e2e.browser, e2e.app, uniqueEmail("push-reading"), { viewport: PHONE });
  const project = await insertProject(e2e.app.dataDir, { ownerId: user.id, title: "Harbor Reading", status: "published" });
  await showPlainDeck(e2e.app, { id: project.id, ownerId: user.id }, 3);
  const settingsUrl = `${e2e.app.url}/project/${project.id}/leads/settings`;
  try {
    const page = await context.newPage();
    await page.goto(settingsUrl);
    await waitForHydration(page);
    await page.getByText("Deck reading").first().waitFor();
    await page.screenshot({ path: "tmp/deck-reading/alert-settings-390.png", fullPage: true });
    const phone = browserSubscription(pushService.origin, "Chrome on Android");
    expect((await context.request.post(settingsUrl, { form: { intent: "push-on", ...phone.input }, headers: { Origin: e2e.app.url }, maxRedirects: 0 })).ok()).toBe(true);
    const titles = () => pushService.received.filter((push) => push.path === phone.path).map((push) => (JSON.parse(phone.decrypt(push.body)) as { title: string }).title);

    const visitor = await newVisitor(e2e.browser, { viewport: PHONE, userAgent: visitorUserAgent(e2e.browser) });
    try {
      await visitor.page.goto(`${e2e.app.url}/pitch/${project.slug}`);
      await waitForEnhancement(visitor.page);
      await readThePage(visitor.page, e2e.app.dataDir);
      const intro = await openPitchDialog(visitor.page, "Request Intro");
      await intro.getByLabel("Name", { exact: true }).fill("Ana Kovač");
      await intro.getByLabel("Email", { exact: true }).fill("ana.reads@example.com");
      await intro.getByLabel("Note", { exact: true }).fill("Send me the deck");
      await intro.getByRole("button", { name: "Request Intro" }).click();
      await intro.getByText("Intro request sent!").waitFor();
      await vi.waitFor(() => expect(titles().some((title) => title.startsWith("Ana Kovač requested an intro"))).toBe(true), { timeout: 15_000 });
      // Later, the same phone opens the page again and reads the deck.
      await visitor.page.goto(`${e2e.app.url}/pitch/${project.slug}`);
      await waitForEnhancement(visitor.page);
      const opened = performance.now();
      await visitor.page.locator("[data-deck-reader]").scrollIntoViewIfNeeded();
      await vi.waitFor(() => expect(titles()).toContain("Ana Kovač is reading your deck"), { timeout: 15_000, interval: 100 });
      expect(titles().filter((title) => title.includes("reading your deck"))).toHaveLength(1);
      console.log(`deck opened to push: ${Math.round(performance.now() - opened)} ms`);
    } finally {
      await visitor.context.close();
    }
  } finally {
    await context.close();
  }
});
