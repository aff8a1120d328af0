// Booth mode: a staff device opens the booth screen through a booth link, with no founder session,
// sees scans and intros made elsewhere as they happen (how fast: `npm run bench booth`), survives a server
// restart, and stops at once when the founder revokes the link. The token opens that one booth and nothing else.
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { TICKER_SETTLE_MS } from "~/modules/booth/booth.server";
import { startAppServer, type AppServer } from "../support/app-server";
import { DESKTOP, PHONE } from "../support/chromium.js";
import { setUpAppInBrowser } from "../support/e2e-app";
import { insertProject, openPitchDialog, readThePage, visitorUserAgent } from "../support/pitch-e2e";
import { signedInContext, uniqueEmail } from "../support/sign-up";
import { newClientContext, nextClientAddress, waitForHydration } from "../support/clients";

const e2e = setUpAppInBrowser();
/** The app started again on the first one's port and data after the restart test stopped it. */
let restarted: AppServer | undefined;
afterAll(async () => {
  await restarted?.stop();
});

/**
 * Pushed while the screen is open, not found at the stream's next 15 s heartbeat (which would also catch a
 * revocation): well inside that, with room for a loaded two-core CI machine. How fast it arrives (SPEC: within
 * 2 s) is a figure, not a test: `npm run bench booth` prints it beside the visitor's own round trip.
 */
const LIVE_WITHIN = { timeout: 7_500 };
/** A form reaches the ticker once its browser's burst window has passed (decision 95). */
const SETTLED_WITHIN = { timeout: TICKER_SETTLE_MS + LIVE_WITHIN.timeout };

type Booth = { projectId: string; slug: string; qrCodeIds: string[]; founder: BrowserContext; founderPage: Page; link: string };

/** A founder with a published project and two tracked codes, and a booth link created on the QR codes page. */
async function boothForNewFounder(title: string): Promise<Booth> {
  const email = uniqueEmail("booth");
  const { context: founder, user: { id: ownerId } } = await signedInContext(e2e.browser, e2e.app, email, { viewport: DESKTOP });
  const project = await insertProject(e2e.app.dataDir, {
    title,
    ownerId,
    tiers: [{ label: "Angel", min: 5_000, max: 25_000 }],
    qrCodes: [{ label: "Booth 12", eventTag: "Demo Day" }, { label: "Flyer" }],
  });
  const founderPage = await founder.newPage();
  await founderPage.goto(`${e2e.app.url}/project/${project.id}/qr-codes`);
  await waitForHydration(founderPage);
  await founderPage.getByRole("button", { name: "Create booth link" }).click();
  const link = await founderPage.getByRole("textbox", { name: "Booth link" }).inputValue();
  expect(link).toMatch(new RegExp(`/project/${project.id}/booth\\?key=[A-Za-z0-9_-]{43}$`));
  return { projectId: project.id, slug: project.slug, qrCodeIds: project.qrCodeIds, founder, founderPage, link };
}

/** A staff device: its own client, no session, the booth link opened as a scanned or typed address. */
async function openStaffBooth(link: string, viewport = { width: 1194, height: 834 }): Promise<{ context: BrowserContext; page: Page }> {
  const { context } = await newClientContext(e2e.browser, { viewport });
  const page = await context.newPage();
  await page.goto(link);
  await waitForHydration(page);
  await page.getByText("Live", { exact: true }).waitFor();
  return { context, page };
}

async function scanAsVisitor(booth: Booth): Promise<void> {
  const { context } = await newClientContext(e2e.browser, { viewport: PHONE, userAgent: visitorUserAgent(e2e.browser) });
  const page = await context.newPage();
  await page.goto(`${e2e.app.url}/pitch/${booth.slug}?qr=${booth.qrCodeIds[0]}`);
  await context.close();
}

const ticker = (page: Page) => page.getByRole("list", { name: "Live activity" });

describe("booth mode", () => {
  it("shows a staff device, without the founder's password, a scan and an intro made elsewhere as they happen", async () => {
    const booth = await boothForNewFounder("Harbor Cold Chain");
    const { context, page } = await openStaffBooth(booth.link);
    // The token went into a cookie and out of the address bar.
    expect(new URL(page.url()).search).toBe("");
    await page.getByRole("heading", { name: "Harbor Cold Chain" }).waitFor();
    await page.getByText("Scan to see the pitch · Booth 12 · Demo Day").waitFor();
    await page.getByText("Today since 00:00").waitFor();
    // Nobody is signed in on a staff device: no one to credit a person met to, so no 'Add a person' (decision 62).
    expect(await page.getByRole("button", { name: "Add a person" }).count()).toBe(0);

    await scanAsVisitor(booth);
    await ticker(page).getByText("Someone just scanned — Booth 12 · Demo Day").waitFor(LIVE_WITHIN);

    const { context: visitor } = await newClientContext(e2e.browser, { viewport: PHONE, userAgent: visitorUserAgent(e2e.browser) });
    const visitorPage = await visitor.newPage();
    await visitorPage.goto(`${e2e.app.url}/pitch/${booth.slug}`);
    await readThePage(visitorPage, e2e.app.dataDir);
    // The visitor's own page load reaches the screen as a second scan before they ask for an intro.
    await expect.poll(() => page.getByRole("definition").first().textContent(), LIVE_WITHIN).toBe("2");
    const dialog = await openPitchDialog(visitorPage, "Request Intro");
    await dialog.getByLabel("Name", { exact: true }).fill("Ana Karenina");
    await dialog.getByLabel("Email", { exact: true }).fill("ana.k@example.com");
    await dialog.getByLabel("Note", { exact: true }).fill("Met you at the booth");
    await dialog.getByRole("button", { name: "Request Intro" }).click();
    await ticker(page).getByText("Someone requested an intro").waitFor(SETTLED_WITHIN);
    await expect.poll(() => page.getByRole("definition").allTextContents(), LIVE_WITHIN).toEqual(["2", "1", "1", "0"]);
    // Never the full name or the address on a screen anyone walking past can read.
    expect(await page.locator("main").textContent()).not.toMatch(/Karenina|ana\.k@example\.com/);

    // The link shows its own code, not a picker: the founder re-points it, and the open screen follows at once.
    expect(await page.getByLabel("QR code shown").count()).toBe(0);
    await booth.founderPage.reload();
    await waitForHydration(booth.founderPage);
    const row = booth.founderPage.locator("li").filter({ has: booth.founderPage.getByRole("button", { name: "Revoke" }) });
    await row.getByLabel("Shows").selectOption({ label: "Flyer" });
    await row.getByRole("button", { name: "Change" }).click();
    await page.getByText("Scan to see the pitch · Flyer").waitFor(LIVE_WITHIN);
    await page.reload();
    await waitForHydration(page);
    await page.getByText("Scan to see the pitch · Flyer").waitFor();
    await visitor.close();
    await context.close();
    await booth.founder.close();
  });

  it("shows it is offline while the server restarts, then reconnects by itself and shows a new scan", async () => {
    const booth = await boothForNewFounder("Restart Robotics");
    const { context, page } = await openStaffBooth(booth.link);
    const offline = page.getByText("Offline — reconnecting…");

    await e2e.app.stop();
    await offline.waitFor();
    restarted = await startAppServer({ dataDir: e2e.app.dataDir, port: e2e.app.port });
    await offline.waitFor({ state: "hidden", timeout: 15_000 });
    await page.getByText("Live", { exact: true }).waitFor();

    await scanAsVisitor(booth);
    await ticker(page).getByText("Someone just scanned — Booth 12 · Demo Day").waitFor(LIVE_WITHIN);
    await context.close();
    await booth.founder.close();
  });

  it("stops a revoked link at once: the open screen says so, a reload and the stream answer 404", async () => {
    const booth = await boothForNewFounder("Revoked Rockets");
    const { context, page } = await openStaffBooth(booth.link, PHONE);

    await booth.founderPage.reload();
    // The founder taps Revoke on the page once it answers taps (not a form post that leaves the page mid-way).
    await waitForHydration(booth.founderPage);
    await booth.founderPage.getByRole("button", { name: "Revoke" }).click();
    await page.getByRole("heading", { name: "This booth link has expired or been revoked" }).waitFor(LIVE_WITHIN);
    expect(await page.locator("body").innerText()).not.toContain("Revoked Rockets");

    const reload = await page.reload();
    expect(reload?.status()).toBe(404);
    // Nothing of the project in the page, its data included.
    expect(await reload?.text()).not.toContain("Revoked Rockets");
    await page.getByText("Ask the founder for a new one.").waitFor();
    expect(await page.locator("body").innerText()).not.toContain("Revoked Rockets");
    const again = await context.newPage();
    expect((await again.goto(booth.link))?.status()).toBe(404);
    expect((await context.request.get(`${e2e.app.url}/project/${booth.projectId}/booth/stream`)).status()).toBe(404);
    await context.close();
    await booth.founder.close();
  });

  it("refuses the token on another project's booth and on every other page of its project", async () => {
    const booth = await boothForNewFounder("Scoped Satellites");
    const other = await boothForNewFounder("Someone Else's");
    const token = new URL(booth.link).searchParams.get("key")!;
    const { context, page } = await openStaffBooth(booth.link);

    const elsewhere = await page.goto(`${e2e.app.url}/project/${other.projectId}/booth?key=${token}`);
    expect(elsewhere?.status()).toBe(404);
    expect(await elsewhere?.text()).not.toContain("Someone Else's");
    expect(await page.locator("body").innerText()).not.toContain("Someone Else's");
    // With the cookie the link set, and with the token itself: never a founder page.
    for (const section of ["analytics", "leads", "edit", "qr-codes", "updates"]) {
      for (const path of [`/project/${booth.projectId}/${section}`, `/project/${booth.projectId}/${section}?key=${token}`]) {
        await page.goto(`${e2e.app.url}${path}`);
        expect(new URL(page.url()).pathname, path).toBe("/auth");
      }
    }
    const write = await context.request.post(`${e2e.app.url}/project/${booth.projectId}/edit`, {
      form: { intent: "revoke-booth-link", linkId: "x" },
      headers: { origin: e2e.app.url, "x-forwarded-for": nextClientAddress() },
      maxRedirects: 0,
    });
    expect(write.status()).toBeGreaterThanOrEqual(300);
    expect(write.status()).not.toBe(200);
    await context.close();
    await booth.founder.close();
    await other.founder.close();
  });
});

