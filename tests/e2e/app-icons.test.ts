// The app icon generator in Chromium, its generate-app-icon function over HTTP, and the
// installable site: the web app manifests and icons, linked from every page and served (decision 11).
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DESKTOP, PHONE } from "../support/chromium.js";
import { collectDownloads, downloadBytes, waitForToast } from "../support/founder-e2e";
import { isFullyOpaque, pixelAt, pngHeader } from "../support/png";
import { setUpAppInBrowser } from "../support/e2e-app";
import { collectPageErrors, newClientContext, waitForHydration } from "../support/clients";

const e2e = setUpAppInBrowser();

const NAMES = ["Minimalist QR Gradient", "QR + Growth Symbol", "QR + Connection"] as const;

async function openGenerator(viewport = DESKTOP): Promise<{ page: Page; errors: string[] }> {
  const { context } = await newClientContext(e2e.browser, { viewport, acceptDownloads: true });
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await page.goto(`${e2e.app.url}/app-icon-generator`);
  await waitForHydration(page);
  return { page, errors };
}

const conceptCard = (page: Page, name: string) => page.getByRole("article", { name });

function expectAppIconPng(png: Buffer): void {
  expect(pngHeader(png)).toEqual({ width: 1024, height: 1024, bitDepth: 8, colorType: 2 });
  expect(pixelAt(png, 0, 0)[3]).toBe(255);
  expect(pixelAt(png, 1023, 1023)[3]).toBe(255);
  expect(isFullyOpaque(png)).toBe(true);
}

describe("App icon generator", () => {
  it("is open to a signed-out visitor: three concepts, 'Generate All 3 Concepts' and the iOS requirements note", async () => {
    const { page, errors } = await openGenerator(PHONE);
    expect(new URL(page.url()).pathname).toBe("/app-icon-generator");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("App Icon Generator");
    expect(await page.getByRole("article").locator("h2").allTextContents()).toEqual([...NAMES]);
    for (const name of NAMES) {
      const card = conceptCard(page, name);
      expect(await card.getByRole("button", { name: "Generate", exact: true }).isEnabled()).toBe(true);
      expect(await card.getByRole("button", { name: "Download PNG" }).count()).toBe(0);
    }
    await page.getByRole("button", { name: "Generate All 3 Concepts" }).waitFor();
    await page.getByRole("heading", { name: "iOS icon requirements" }).waitFor();
    expect(await page.getByRole("complementary").textContent()).toContain("no transparency");
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("generates one concept, then downloads it as icon-concept-2.png, 1024x1024 and opaque", async () => {
    const { page, errors } = await openGenerator();
    const card = conceptCard(page, "QR + Growth Symbol");
    await card.getByRole("button", { name: "Generate", exact: true }).click();
    await waitForToast(page, "Concept 2 generated!");
    const image = card.getByRole("img", { name: /QR \+ Growth Symbol app icon/ });
    expect(await image.getAttribute("src")).toMatch(/^\/app-icons\/concept-2\.png\?v=[\w-]+$/);
    expect(await image.evaluate((img: HTMLImageElement) => [img.complete, img.naturalWidth, img.naturalHeight])).toEqual([true, 1024, 1024]);
    // The other concepts are untouched.
    expect(await conceptCard(page, "QR + Connection").getByRole("img").count()).toBe(0);

    const toast = waitForToast(page, "Icon downloaded!");
    const [download] = await collectDownloads(page, 1, () => card.getByRole("button", { name: "Download PNG" }).click());
    await toast;
    expect(download!.suggestedFilename()).toBe("icon-concept-2.png");
    expectAppIconPng(await downloadBytes(download!));
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("'Generate All 3 Concepts' runs them one after another; each can be downloaded", async () => {
    const { page, errors } = await openGenerator();
    // The order the browser reports requests starting and finishing in: one after another means each concept's
    // request starts only after the previous one finished (the browser's clocks differ by a few ms, its order does not).
    const events: string[] = [];
    const isIconCall = (url: string) => url.endsWith("/api/functions/generate-app-icon");
    page.on("request", (request) => {
      if (isIconCall(request.url())) events.push(`start ${request.postDataJSON().concept}`);
    });
    page.on("requestfinished", (request) => {
      if (isIconCall(request.url())) events.push(`finish ${request.postDataJSON().concept}`);
    });
    await page.getByRole("button", { name: "Generate All 3 Concepts" }).click();
    await waitForToast(page, "Concept 1 generated!");
    await waitForToast(page, "Concept 2 generated!");
    await waitForToast(page, "Concept 3 generated!");
    await expect.poll(() => page.getByRole("button", { name: "Generate All 3 Concepts" }).isEnabled()).toBe(true);

    expect(events).toEqual(["start 1", "finish 1", "start 2", "finish 2", "start 3", "finish 3"]);
    const sources = await page.getByRole("article").getByRole("img").evaluateAll((images) => images.map((image) => image.getAttribute("src")));
    expect(sources.map((src) => src?.replace(/\?.*$/, ""))).toEqual(["/app-icons/concept-1.png", "/app-icons/concept-2.png", "/app-icons/concept-3.png"]);

    const [download] = await collectDownloads(page, 1, () => conceptCard(page, "QR + Connection").getByRole("button", { name: "Download PNG" }).click());
    expect(download!.suggestedFilename()).toBe("icon-concept-3.png");
    expectAppIconPng(await downloadBytes(download!));
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("a failure shows the server's text, or 'Failed to generate icon' when there is none", async () => {
    const { page } = await openGenerator();
    const card = conceptCard(page, "Minimalist QR Gradient");
    await page.route("**/api/functions/generate-app-icon", (route) => route.fulfill({ status: 503, json: { error: "Icon service is resting" } }));
    await card.getByRole("button", { name: "Generate", exact: true }).click();
    await waitForToast(page, "Icon service is resting");
    await page.unroute("**/api/functions/generate-app-icon");
    await page.route("**/api/functions/generate-app-icon", (route) => route.abort("connectionfailed"));
    await card.getByRole("button", { name: "Generate", exact: true }).click();
    await waitForToast(page, "Failed to generate icon");
    expect(await card.getByRole("button", { name: "Download PNG" }).count()).toBe(0);
    await page.context().close();
  });
});

describe("generate-app-icon over HTTP", () => {
  const call = (body: string) =>
    fetch(`${e2e.app.url}/api/functions/generate-app-icon`, { method: "POST", headers: { "content-type": "application/json" }, body });

  it("answers {imageUrl} for concepts 1 to 3; the PNG is served with a long cache", async () => {
    for (const concept of [1, 2, 3]) {
      const response = await call(JSON.stringify({ concept }));
      expect(response.status).toBe(200);
      const { imageUrl } = (await response.json()) as { imageUrl: string };
      expect(imageUrl).toMatch(new RegExp(`^/app-icons/concept-${concept}\\.png\\?v=`));
      const image = await fetch(`${e2e.app.url}${imageUrl}`);
      expect(image.status).toBe(200);
      expect(image.headers.get("content-type")).toBe("image/png");
      expect(image.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expectAppIconPng(Buffer.from(await image.arrayBuffer()));
      const again = await fetch(`${e2e.app.url}${imageUrl}`, { headers: { "if-none-match": image.headers.get("etag") ?? "" } });
      expect(again.status).toBe(304);
    }
  });

  it("refuses any other concept with 400 and a clear message", async () => {
    for (const body of ['{"concept":0}', '{"concept":4}', '{"concept":"one"}', "{}"]) {
      const response = await call(body);
      expect(response.status, body).toBe(400);
      expect(((await response.json()) as { error: string }).error).toBe("concept must be 1, 2 or 3");
    }
    expect((await call("not json")).status).toBe(400);
    expect((await fetch(`${e2e.app.url}/api/functions/generate-app-icon`)).status).toBe(405);
    expect((await fetch(`${e2e.app.url}/app-icons/concept-4.png`)).status).toBe(404);
  });
});

describe("Installable site", () => {
  /** What Chromium itself reads from the page: the manifest it found, parsed, and its complaints. */
  async function appManifest(page: Page): Promise<{ url: string; errors: unknown[]; manifest: Record<string, unknown> }> {
    const cdp = await page.context().newCDPSession(page);
    const result = (await cdp.send("Page.getAppManifest")) as { url: string; errors: unknown[]; data?: string };
    return { url: result.url, errors: result.errors, manifest: JSON.parse(result.data ?? "{}") };
  }

  async function headLinks(page: Page) {
    return page.evaluate(() => ({
      manifest: document.querySelector<HTMLLinkElement>('link[rel="manifest"]')?.getAttribute("href"),
      manifests: document.querySelectorAll('link[rel="manifest"]').length,
      appleTouchIcon: document.querySelector<HTMLLinkElement>('link[rel="apple-touch-icon"]')?.getAttribute("href"),
      icons: [...document.querySelectorAll<HTMLLinkElement>('link[rel="icon"]')].map((link) => link.getAttribute("href")),
      appTitle: document.querySelector<HTMLMetaElement>('meta[name="apple-mobile-web-app-title"]')?.content,
      themeColor: document.querySelector<HTMLMetaElement>('meta[name="theme-color"]')?.content,
    }));
  }

  it("every page links the product's manifest, the apple-touch-icon and the favicons; Chromium reads the manifest without errors", async () => {
    const { context } = await newClientContext(e2e.browser, { viewport: PHONE });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await page.goto(`${e2e.app.url}/`);
    expect(await headLinks(page)).toEqual({
      manifest: "/manifest.webmanifest",
      manifests: 1,
      appleTouchIcon: "/apple-touch-icon.png",
      icons: ["/favicon.svg", "/icons/favicon-32.png"],
      appTitle: "PitchQR",
      themeColor: "#4f46e5",
    });
    const { url, errors: manifestErrors, manifest } = await appManifest(page);
    expect(url).toBe(`${e2e.app.url}/manifest.webmanifest`);
    expect(manifestErrors).toEqual([]);
    expect(manifest).toMatchObject({ name: "PitchQR", short_name: "PitchQR", start_url: "/", display: "standalone" });
    expect(errors, "no CSP violation fetching the manifest or icons").toEqual([]);
    await context.close();
  });

  it("serves each icon at its declared size: square ones opaque, from concept 1", async () => {
    const response = await fetch(`${e2e.app.url}/manifest.webmanifest`);
    expect(response.headers.get("content-type")).toMatch(/^application\/manifest\+json/);
    const manifest = (await response.json()) as { icons: { src: string; sizes: string; type: string; purpose: string }[] };
    expect(new Set(manifest.icons.map((icon) => icon.sizes))).toEqual(new Set(["192x192", "512x512"]));
    expect(new Set(manifest.icons.map((icon) => icon.purpose))).toEqual(new Set(["any", "maskable"]));
    const files = [...manifest.icons.map((icon) => ({ path: icon.src, size: Number(icon.sizes.split("x")[0]) })), { path: "/apple-touch-icon.png", size: 180 }, { path: "/icons/apple-touch-icon.png", size: 180 }];
    for (const { path, size } of files) {
      const icon = await fetch(`${e2e.app.url}${path}`);
      expect(icon.status, path).toBe(200);
      expect(icon.headers.get("content-type")).toBe("image/png");
      const png = Buffer.from(await icon.arrayBuffer());
      // A palette image (colour type 3) without transparency: no alpha channel.
      expect(pngHeader(png), path).toEqual({ width: size, height: size, bitDepth: 8, colorType: 3 });
      expect(isFullyOpaque(png), path).toBe(true);
    }
    const favicon = await fetch(`${e2e.app.url}/favicon.svg`);
    expect(favicon.headers.get("content-type")).toBe("image/svg+xml");
    expect(await favicon.text()).toMatch(/^<svg /);
    const small = Buffer.from(await (await fetch(`${e2e.app.url}/icons/favicon-32.png`)).arrayBuffer());
    expect(pngHeader(small)).toMatchObject({ width: 32, height: 32 });
    const ico = await fetch(`${e2e.app.url}/favicon.ico`, { redirect: "manual" });
    expect([ico.status, ico.headers.get("location")]).toEqual([301, "/favicon.svg"]);
    expect((await fetch(`${e2e.app.url}/icons/unknown.png`)).status).toBe(404);
  });

  it("a pitch page added to the home screen gets its project's name and opens itself, also when served from the page cache", async () => {
    const { context } = await newClientContext(e2e.browser, { viewport: PHONE });
    const page = await context.newPage();
    await page.goto(`${e2e.app.url}/pitch/demo-project`);
    const title = (await page.getByRole("heading", { level: 1 }).textContent())?.trim() ?? "";
    expect(title).not.toBe("");
    expect(await headLinks(page)).toMatchObject({ manifest: "/pitch/demo-project/manifest.webmanifest", manifests: 1, appTitle: title });
    const { errors, manifest } = await appManifest(page);
    expect(errors).toEqual([]);
    expect(manifest).toMatchObject({ name: title, start_url: "/pitch/demo-project", scope: "/pitch/demo-project", display: "standalone" });
    expect(String(manifest.short_name).length).toBeLessThanOrEqual(12);

    const cached = await fetch(`${e2e.app.url}/pitch/demo-project`);
    expect(cached.headers.get("x-page-cache")).toBe("hit");
    expect(await cached.text()).toContain('<link rel="manifest" href="/pitch/demo-project/manifest.webmanifest"/>');
    expect((await fetch(`${e2e.app.url}/pitch/no-such-project/manifest.webmanifest`)).status).toBe(404);
    await context.close();
  });
});
