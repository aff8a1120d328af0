// The public pitch page as a visitor gets it: server-rendered HTML, the spec's section order, meta tags,
// not-found and draft pages, Book Meeting, the legal footer and the phone action bar; scan tracking with
// QR codes; user text that looks like markup; the thank-you and unsubscribe pages.
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { DESKTOP, PHONE } from "../support/chromium.js";
import {
  DEMO_SLUG,
  insertProject,
  marker,
  newVisitor,
  postFunction,
  visitorUserAgent,
} from "../support/pitch-e2e";
import { setUpAppInBrowser } from "../support/e2e-app";
import { waitForEnhancement, waitForHydration } from "../support/clients";
import { projectIdBySlug, withWritableDb } from "../support/test-db";

const e2e = setUpAppInBrowser();

/** The text a browser would show for an HTML fragment's character references. */
function decodeEntities(html: string): string {
  return html
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

async function demoProject() {
  const row = await e2e.db
    .selectFrom("projects")
    .select(["id", "title", "one_liner", "metrics", "problem_points", "solution_points"])
    .where("slug", "=", DEMO_SLUG)
    .executeTakeFirstOrThrow();
  const wall = await e2e.db
    .selectFrom("recognition_entries")
    .select(["display_name", "message"])
    .where("project_id", "=", row.id)
    .where("is_public", "=", true)
    .where("hidden", "=", false)
    .execute();
  return {
    id: row.id,
    title: row.title,
    oneLiner: row.one_liner,
    metrics: row.metrics,
    problems: row.problem_points,
    solutions: row.solution_points,
    wall,
  };
}

describe("the demo pitch page", () => {
  it("answers 200 with the whole page in the first response (no loading state), then from the page cache", async () => {
    const demo = await demoProject();
    expect(demo.metrics.length).toBeGreaterThan(0);
    expect(demo.problems.length).toBeGreaterThan(0);
    expect(demo.solutions.length).toBeGreaterThan(0);
    expect(demo.wall.length).toBeGreaterThan(0);

    const response = await fetch(`${e2e.app.url}/pitch/${DEMO_SLUG}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const raw = await response.text();
    const html = decodeEntities(raw);
    expect(html).toMatch(/^<!DOCTYPE html>/i);
    expect(html).toContain("</html>");
    expect(html).not.toContain("Loading...");
    expect(html).toContain(demo.title);
    expect(html).toContain(demo.oneLiner);
    for (const metric of demo.metrics) {
      expect(html).toContain(metric.value);
      expect(html).toContain(metric.label);
    }
    for (const point of [...demo.problems, ...demo.solutions]) expect(html).toContain(point);
    for (const entry of demo.wall) {
      expect(html).toContain(entry.display_name);
      if (entry.message) expect(html).toContain(entry.message);
    }

    const again = await fetch(`${e2e.app.url}/pitch/${DEMO_SLUG}`);
    expect(again.status).toBe(200);
    expect(again.headers.get("x-page-cache")).toBe("hit");
    expect(decodeEntities(await again.text())).toContain(demo.oneLiner);
  });

  it("shows the sections in the spec's order, with Open Graph and Twitter tags carrying the title and one-liner", async () => {
    const demo = await demoProject();
    const { context, page } = await newVisitor(e2e.browser, { viewport: DESKTOP });
    try {
      await page.goto(`${e2e.app.url}/pitch/${DEMO_SLUG}`);
      expect((await page.getByRole("heading", { level: 1 }).textContent())?.trim()).toBe(demo.title);

      const order = await page.evaluate(() => {
        const pick = (selector: string) => document.querySelector(selector);
        const openOnPhone = [...document.querySelectorAll("a")].find((link) => link.textContent?.includes("Open on my phone")) ?? null;
        const wallTitle = pick("#wall-title");
        const sections: [string, Element | null][] = [
          ["hero title", pick("h1")],
          ["metrics", pick('[aria-label="Traction"]')],
          ["hero actions", [...document.querySelectorAll("main a")].find((link) => link.textContent?.trim() === "Request Intro") ?? null],
          ["open on my phone", openOnPhone],
          ["stats strip", pick('section[aria-label="Stats"]')],
          ["problem and solution", pick('section[aria-label="Problem and solution"]')],
          ["deck", pick("#deck-title")],
          ["recognition wall", wallTitle],
          ["legal footer", pick('footer nav[aria-label="Legal"]')],
        ];
        const missing = sections.filter(([, element]) => !element).map(([name]) => name);
        const outOfOrder: string[] = [];
        for (let index = 1; index < sections.length; index += 1) {
          const before = sections[index - 1]![1];
          const after = sections[index]![1];
          if (before && after && !(before.compareDocumentPosition(after) & Node.DOCUMENT_POSITION_FOLLOWING)) {
            outOfOrder.push(`${sections[index - 1]![0]} / ${sections[index]![0]}`);
          }
        }
        return { missing, outOfOrder };
      });
      expect(order).toEqual({ missing: [], outOfOrder: [] });

      const meta = async (selector: string) => page.locator(`head ${selector}`).getAttribute("content");
      expect(await meta('meta[property="og:title"]')).toBe(demo.title);
      expect(await meta('meta[property="og:description"]')).toBe(demo.oneLiner);
      expect(await meta('meta[name="twitter:title"]')).toBe(demo.title);
      expect(await meta('meta[name="twitter:description"]')).toBe(demo.oneLiner);
      expect(await meta('meta[property="og:url"]')).toBe(`${e2e.app.url}/pitch/${DEMO_SLUG}`);
      expect(await page.title()).toContain(demo.title);

      const legal = page.getByRole("navigation", { name: "Legal" });
      expect(await legal.getByRole("link", { name: "Terms" }).getAttribute("href")).toBe("/terms");
      expect(await legal.getByRole("link", { name: "Privacy" }).getAttribute("href")).toBe("/privacy");
      expect(await legal.getByRole("link", { name: "Unsubscribe" }).getAttribute("href")).toBe("/unsubscribe");
      expect(await page.locator("footer").textContent()).toMatch(/non-binding.*No payment is made.*no securities are offered or sold/s);
    } finally {
      await context.close();
    }
  });

  it("answers an unknown slug with 404 and the spec's not-found text", async () => {
    const response = await fetch(`${e2e.app.url}/pitch/no-such-project-${marker("")}`);
    expect(response.status).toBe(404);
    const html = decodeEntities(await response.text());
    expect(html).toContain("Project not found");
    expect(html).toContain("This project doesn't exist or has been removed.");

    const { context, page } = await newVisitor(e2e.browser, { viewport: PHONE });
    try {
      const visit = await page.goto(`${e2e.app.url}/pitch/no-such-project`);
      expect(visit?.status()).toBe(404);
      await page.getByRole("heading", { level: 1, name: "Project not found" }).waitFor();
      await page.getByText("This project doesn't exist or has been removed.").waitFor();
    } finally {
      await context.close();
    }
  });

  it("hides a draft project from anonymous visitors (404, nothing of it in the page)", async () => {
    const title = marker("Secret Draft ");
    const draft = await insertProject(e2e.app.dataDir, { title, oneLiner: marker("draft one-liner "), status: "draft" });
    for (const path of [`/pitch/${draft.slug}`, `/pitch/${draft.slug}?qr=x`, `/pitch/${draft.slug}?dialog=intro`]) {
      const response = await fetch(`${e2e.app.url}${path}`);
      expect(response.status, path).toBe(404);
      expect(response.headers.get("x-page-cache")).toBeNull();
      const html = await response.text();
      expect(html).toContain("Project not found");
      expect(html).not.toContain(title);
    }
  });

  it("shows a disabled 'Calendar Coming Soon' without a booking URL, and opens the booking URL in a new tab with one", async () => {
    const booking = "https://calendly.com/e2e-founder/intro";
    const withCalendar = await insertProject(e2e.app.dataDir, { title: marker("Bookable "), calendlyUrl: booking });
    const { context, page } = await newVisitor(e2e.browser, { viewport: DESKTOP });
    try {
      await page.goto(`${e2e.app.url}/pitch/${DEMO_SLUG}`);
      const soon = page.getByRole("main").getByRole("button", { name: "Calendar Coming Soon" });
      expect(await soon.isVisible()).toBe(true);
      expect(await soon.isDisabled()).toBe(true);
      expect(await page.getByRole("main").getByRole("link", { name: "Book Meeting" }).count()).toBe(0);

      // The network is closed: answer the booking site locally.
      await context.route("https://calendly.com/**", (route) => route.fulfill({ contentType: "text/html", body: "<title>Booking</title>" }));
      await page.goto(`${e2e.app.url}/pitch/${withCalendar.slug}`);
      await waitForEnhancement(page);
      const book = page.getByRole("main").getByRole("link", { name: "Book Meeting" });
      expect(await book.getAttribute("href")).toBe(booking);
      expect(await book.getAttribute("target")).toBe("_blank");
      expect(await page.getByRole("main").getByRole("button", { name: "Calendar Coming Soon" }).count()).toBe(0);
      const [popup] = await Promise.all([context.waitForEvent("page"), book.click()]);
      await popup.waitForURL(booking);
      expect(page.url()).toBe(`${e2e.app.url}/pitch/${withCalendar.slug}`);
    } finally {
      await context.close();
    }
  });

  it("shows the fixed bottom bar with the four actions under 768 px, and hides it on a desktop", async () => {
    const { context, page } = await newVisitor(e2e.browser, { viewport: PHONE });
    try {
      await page.goto(`${e2e.app.url}/pitch/${DEMO_SLUG}`);
      const bar = page.getByRole("navigation", { name: "Quick actions" });
      expect(await bar.isVisible()).toBe(true);
      expect(await bar.evaluate((element) => getComputedStyle(element).position)).toBe("fixed");
      const box = await bar.boundingBox();
      expect(box && Math.round(box.y + box.height)).toBe(PHONE.height);
      for (const name of ["Request Intro", "Follow Updates", "Signal Interest"]) {
        expect(await bar.getByRole("link", { name }).isVisible(), name).toBe(true);
      }
      const book = bar.getByRole("button", { name: /Book Meeting/ });
      expect(await book.isVisible()).toBe(true);
      expect(await book.isDisabled()).toBe(true);
      // Still there after scrolling to the end of the page.
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      expect(await bar.isVisible()).toBe(true);

      // The bar's Signal action opens the signal dialog.
      await waitForEnhancement(page);
      await bar.getByRole("link", { name: "Signal Interest" }).click();
      await page.getByRole("dialog", { name: "Signal Interest" }).waitFor();

      await page.setViewportSize(DESKTOP);
      await page.goto(`${e2e.app.url}/pitch/${DEMO_SLUG}`);
      await expect.poll(() => bar.isVisible()).toBe(false);
      expect(await page.getByRole("main").getByRole("link", { name: "Request Intro" }).first().isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  });
});

describe("scan tracking", () => {
  const qrId = marker("e2eqr");
  let projectId: string;

  beforeAll(async () => {
    projectId = await projectIdBySlug(e2e.db, DEMO_SLUG);
    await withWritableDb(e2e.app, (rw) => rw.insertInto("qr_codes").values({ id: qrId, project_id: projectId, label: "Booth A", event_tag: "e2e-expo" }).execute());
  });

  const qrCounts = async () => {
    const qr = await e2e.db.selectFrom("qr_codes").select(["total_scans", "unique_scans"]).where("id", "=", qrId).executeTakeFirstOrThrow();
    const rows = await e2e.db
      .selectFrom("scans")
      .select((eb) => [eb.fn.countAll<number>().as("n"), eb.fn.count<number>("viewer_fingerprint").distinct().as("viewers")])
      .where("qr_code_id", "=", qrId)
      .executeTakeFirstOrThrow();
    return { rows: rows.n, viewers: rows.viewers, total: qr.total_scans, unique: qr.unique_scans };
  };
  const projectStats = async () =>
    (await e2e.db.selectFrom("project_stats").select(["total_scans", "unique_scans"]).where("project_id", "=", projectId).executeTakeFirst()) ?? { total_scans: 0, unique_scans: 0 };

  it("counts a page load once, a reload as a repeat viewer, and another browser as a new viewer", async () => {
    const userAgent = visitorUserAgent(e2e.browser);
    const before = await projectStats();
    const first = await newVisitor(e2e.browser, { viewport: PHONE, userAgent });
    try {
      await first.page.goto(`${e2e.app.url}/pitch/${DEMO_SLUG}?qr=${qrId}`);
      await expect.poll(qrCounts, { timeout: 10_000 }).toEqual({ rows: 1, viewers: 1, total: 1, unique: 1 });
      const { viewer_fingerprint: fingerprint } = await e2e.db.selectFrom("scans").select("viewer_fingerprint").where("qr_code_id", "=", qrId).executeTakeFirstOrThrow();
      expect(fingerprint).toMatch(/^[0-9a-f]{32}$/);

      // Opening and closing a dialog is a navigation within the page: not another scan (the reload below
      // would then count 3).
      await waitForEnhancement(first.page);
      await first.page.getByRole("main").getByRole("link", { name: "Follow Updates" }).first().click();
      await first.page.getByRole("dialog", { name: "Follow Updates" }).waitFor();
      await first.page.keyboard.press("Escape");
      await first.page.getByRole("dialog").waitFor({ state: "hidden" });
      // The address keeps the code while the visitor is on the page, so a reload counts for the code.
      expect(new URL(first.page.url()).searchParams.get("qr")).toBe(qrId);

      await first.page.reload();
      await expect.poll(qrCounts, { timeout: 10_000 }).toEqual({ rows: 2, viewers: 1, total: 2, unique: 1 });
    } finally {
      await first.context.close();
    }

    const second = await newVisitor(e2e.browser, { viewport: PHONE, userAgent });
    try {
      await second.page.goto(`${e2e.app.url}/pitch/${DEMO_SLUG}?qr=${qrId}`);
      await expect.poll(qrCounts, { timeout: 10_000 }).toEqual({ rows: 3, viewers: 2, total: 3, unique: 2 });
    } finally {
      await second.context.close();
    }
    const after = await projectStats();
    expect(after.total_scans - before.total_scans).toBe(3);
    expect(after.unique_scans - before.unique_scans).toBe(2);
  });

  it("does not count bots, and answers bad requests with an error", async () => {
    const before = await qrCounts();
    const bot = await postFunction(
      e2e.app.url,
      "track-scan",
      { projectId, qrCodeId: qrId, viewerFingerprint: "b".repeat(32) },
      { userAgent: "Googlebot/2.1 (+http://www.google.com/bot.html)" },
    );
    expect(bot.status).toBe(200);
    expect(await bot.json()).toMatchObject({ counted: false });
    expect(await qrCounts()).toEqual(before);

    const browserAgent = visitorUserAgent(e2e.browser);
    const malformed = await postFunction(e2e.app.url, "track-scan", null, { raw: "{not json", userAgent: browserAgent });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ error: expect.any(String) });

    const unknown = await postFunction(e2e.app.url, "track-scan", { projectId: "no-such-project", qrCodeId: null, viewerFingerprint: "c".repeat(32) }, { userAgent: browserAgent });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: expect.any(String) });
    expect(await qrCounts()).toEqual(before);
  });
});

describe("text that looks like markup", () => {
  const img = `<img src=x onerror="window.__xss=1">`;
  const script = `<script>window.__xss=1</script>`;
  const title = `Evil ${img} Labs ${script}`;
  const oneLiner = `We ship ${script} and ${img} daily`;
  const wallName = `Mallory ${img}`;
  const wallMessage = `Great team ${script}`;
  let slug: string;

  beforeAll(async () => {
    slug = (await insertProject(e2e.app.dataDir, {
      title,
      oneLiner,
      problemPoints: [`Problem ${img}`],
      solutionPoints: [`Solution ${script}`],
      metrics: [{ label: `Use ${img}`, value: "10" }],
      wall: [{ displayName: wallName, message: wallMessage, roleTags: ["Angel"] }],
      tiers: [{ label: "Angel", min: 1_000, max: 5_000 }],
    })).slug;
  });

  /** Scripts that ran and CSP refusals (an injected handler would be refused and logged). */
  function watch(page: Page): string[] {
    const problems: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy|__xss/i.test(message.text())) problems.push(message.text());
    });
    page.on("pageerror", (error) => problems.push(error.message));
    return problems;
  }

  async function injectedNothing(page: Page) {
    expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    // No script element made of the payload (the page's own data scripts carry it escaped, as a string).
    expect(await page.locator("script").evaluateAll((scripts) => scripts.filter((s) => s.textContent?.trim() === "window.__xss=1").length)).toBe(0);
  }

  it("shows a project's and a wall entry's markup as literal text, and runs none of it", async () => {
    const raw = await (await fetch(`${e2e.app.url}/pitch/${slug}`)).text();
    expect(raw).not.toContain(img);
    expect(raw).not.toContain(script);

    const { context, page } = await newVisitor(e2e.browser, { viewport: DESKTOP });
    const problems = watch(page);
    try {
      await page.goto(`${e2e.app.url}/pitch/${slug}`);
      await waitForEnhancement(page);
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(title);
      await page.getByText(oneLiner, { exact: true }).waitFor();
      await page.getByText(`Problem ${img}`, { exact: true }).waitFor();
      await page.getByText(`Solution ${script}`, { exact: true }).waitFor();
      await page.getByText(`Use ${img}`, { exact: true }).waitFor();
      const entry = page.getByRole("list", { name: "Wall entries, newest first" }).getByRole("listitem").filter({ hasText: "Mallory" }).first();
      await entry.getByText(wallName, { exact: true }).waitFor();
      expect(await entry.textContent()).toContain(wallMessage);
      expect(await page.title()).toContain(title);
      expect(await page.locator('head meta[property="og:title"]').getAttribute("content")).toBe(title);
      await injectedNothing(page);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("shows an intro note with a <script> in the forwardable blurb as text", async () => {
    const note = `Intro note ${script} ${img} ${marker("n")}`;
    const { context, page } = await newVisitor(e2e.browser, { viewport: DESKTOP });
    const problems = watch(page);
    try {
      await page.goto(`${e2e.app.url}/pitch/${slug}`);
      await waitForEnhancement(page);
      await page.getByRole("main").getByRole("link", { name: "Request Intro" }).first().click();
      const dialog = page.getByRole("dialog", { name: "Request Intro" });
      await dialog.getByLabel("Name", { exact: true }).fill(`Eve ${img}`);
      await dialog.getByLabel("Email", { exact: true }).fill(`${marker("eve")}@example.com`);
      await dialog.getByLabel("Note", { exact: true }).fill(note);
      await dialog.getByRole("button", { name: "Request Intro" }).click();
      const blurb = dialog.getByLabel("Your forwardable intro blurb");
      await blurb.waitFor();
      const text = await blurb.inputValue();
      expect(text).toContain(note);
      expect(text).toContain(`Eve ${img}`);
      await injectedNothing(page);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe("the thank-you and unsubscribe pages", () => {
  it("/pledge-success thanks the visitor, copies the site link and goes back home", async () => {
    const { context, page } = await newVisitor(e2e.browser, { viewport: PHONE, permissions: ["clipboard-read", "clipboard-write"] });
    try {
      const response = await page.goto(`${e2e.app.url}/pledge-success?session_id=abc`);
      expect(response?.status()).toBe(200);
      await page.getByRole("heading", { level: 1, name: "Thank You for Your Support!" }).waitFor();
      await waitForHydration(page);
      await page.getByRole("button", { name: "Share Project" }).click();
      await page.getByText("Link copied to clipboard!").waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(e2e.app.url);
      await page.getByRole("link", { name: "Back to Home" }).click();
      await page.waitForURL(`${e2e.app.url}/`);
    } finally {
      await context.close();
    }
  });

  it("/unsubscribe refuses an address without an at-sign, and for a valid one says to check the inbox", async () => {
    const { context, page } = await newVisitor(e2e.browser, { viewport: PHONE });
    try {
      await page.goto(`${e2e.app.url}/unsubscribe`);
      await waitForHydration(page);
      const email = page.getByLabel("Email", { exact: true });
      const submit = page.getByRole("main").getByRole("button", { name: "Unsubscribe" });
      await email.fill("no-at-sign");
      await submit.click();
      const alert = page.getByRole("main").getByRole("alert");
      await alert.getByText("Invalid email", { exact: true }).waitFor();
      await alert.getByText("Please enter a valid email address.", { exact: true }).waitFor();

      // Hold the submission until the busy label has been seen.
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route(
        (url) => url.pathname.startsWith("/unsubscribe"),
        async (route) => {
          if (route.request().method() === "POST") await released;
          await route.continue();
        },
      );
      await email.fill(`${marker("gone")}@example.com`);
      await submit.click();
      await page.getByRole("main").getByRole("button", { name: "Processing..." }).waitFor();
      release();
      await page.getByRole("heading", { name: "Check your inbox" }).waitFor();
      await page.getByText("Nothing changes until you open that link and press Unsubscribe.", { exact: false }).waitFor();
    } finally {
      await context.close();
    }
  });
});
