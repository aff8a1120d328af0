// Signed-in pages carried no Cache-Control (the owner's pitch page shared its URL with the public
// cached one; the booth's no-store was dropped), so a CDN with a default TTL, or Back after sign-out, could show
// them to others. This walks every route of app/routes.ts over HTTP against the built app, as the owner and as an
// anonymous visitor, documents, `.data` and resource routes, GET and (where the route has an action) POST, and
// checks that nothing is stored anywhere unless it is the same for everybody (decision 41).
import { beforeAll, describe, expect, it, vi } from "vitest";
import routes from "../../app/routes";
import { nextClientAddress, waitForHydration } from "../support/clients";
import { setUpAppInBrowser } from "../support/e2e-app";
import { founderPost, visitorAction } from "../support/leads-e2e";
import { makeDeckPdf } from "../support/deck-pdfs";
import { insertProject } from "../support/pitch-e2e";
import { signedInContext, signedInUser, uniqueEmail } from "../support/sign-up";

type Fixture = { projectId: string; slug: string; draftSlug: string; qrId: string; leadId: string; boothKey: string; deckId: string };

type Visit = { path: string; method?: "POST"; form?: Record<string, string>; json?: unknown; stream?: boolean };

type RouteCase = {
  visits: (f: Fixture) => Visit[];
  /** Marked public on purpose: the same bytes for everyone (icons, manifests), or for every anonymous visitor. */
  publicFor?: "everyone" | "anonymous";
};

const form = (fields: Record<string, string>) => ({ method: "POST" as const, form: fields });
const json = (body: unknown) => ({ method: "POST" as const, json: body });

/** Every route of app/routes.ts, keyed by its path, with the addresses to request. */
const ROUTES: Record<string, RouteCase> = {
  "/": { visits: () => [{ path: "/" }] },
  "/auth": { visits: () => [{ path: "/auth" }, { path: "/auth", ...form({ intent: "signin", email: "nobody@example.com", password: "wrong-password" }) }] },
  "/auth/sign-out": { visits: () => [{ path: "/auth/sign-out" }] },
  "/auth/forgot-password": { visits: () => [{ path: "/auth/forgot-password" }, { path: "/auth/forgot-password", ...form({ email: "nobody@example.com" }) }] },
  "/auth/confirm-email": {
    visits: () => [{ path: "/auth/confirm-email?token=a.b.c" }, { path: "/auth/confirm-email", ...form({ intent: "confirm", token: "a.b.c" }) }],
  },
  "/auth/reset-password": {
    visits: () => [{ path: "/auth/reset-password?token=not-a-token" }, { path: "/auth/reset-password", ...form({ token: "not-a-token", password: "secret123" }) }],
  },
  "/pitch/:slug": {
    publicFor: "anonymous",
    visits: (f) => [
      { path: `/pitch/${f.slug}` },
      { path: `/pitch/${f.slug}?qr=${f.qrId}` },
      { path: `/pitch/${f.draftSlug}` },
      { path: `/pitch/${f.slug}?dialog=intro` },
      { path: `/pitch/${f.slug}`, ...form({ intent: "subscribe", name: "Cache Walker", email: "walker@example.com", consent: "on" }) },
    ],
  },
  "/pitch/:slug/submit": {
    visits: (f) => [
      { path: `/pitch/${f.slug}/submit` },
      { path: `/pitch/${f.slug}/submit`, ...form({ intent: "intro", name: "Cache Walker", email: "walker@example.com", note: "Hello" }) },
    ],
  },
  "/dashboard": { visits: () => [{ path: "/dashboard" }] },
  "/operator-banner/dismiss": {
    visits: () => [{ path: "/operator-banner/dismiss" }, { path: "/operator-banner/dismiss", ...form({ kind: "mail", returnTo: "/dashboard" }) }],
  },
  "/my-projects": { visits: () => [{ path: "/my-projects" }] },
  "/project/create": { visits: () => [{ path: "/project/create" }, { path: "/project/create", ...form({ intent: "save" }) }] },
  "/project/:id/edit": { visits: (f) => [{ path: `/project/${f.projectId}/edit` }, { path: `/project/${f.projectId}/edit`, ...form({ intent: "post-update" }) }] },
  "/project/:id/qr-codes": { visits: (f) => [{ path: `/project/${f.projectId}/qr-codes` }] },
  "/project/:id/updates": { visits: (f) => [{ path: `/project/${f.projectId}/updates` }] },
  "/project/:id/analytics": { visits: (f) => [{ path: `/project/${f.projectId}/analytics` }] },
  "/project/:id/contacts.csv": { visits: (f) => [{ path: `/project/${f.projectId}/contacts.csv` }] },
  "/project/:id/leads": { visits: (f) => [{ path: `/project/${f.projectId}/leads` }, { path: `/project/${f.projectId}/leads`, ...form({ intent: "triage" }) }] },
  "/project/:id/leads.vcf": { visits: (f) => [{ path: `/project/${f.projectId}/leads.vcf` }] },
  "/project/:id/leads/settings": {
    visits: (f) => [{ path: `/project/${f.projectId}/leads/settings` }, { path: `/project/${f.projectId}/leads/settings`, ...form({ intent: "alerts" }) }],
  },
  "/project/:id/leads/held": {
    visits: (f) => [{ path: `/project/${f.projectId}/leads/held` }, { path: `/project/${f.projectId}/leads/held`, ...form({ intent: "discard", heldId: "none" }) }],
  },
  "/project/:id/leads/report": { visits: (f) => [{ path: `/project/${f.projectId}/leads/report` }] },
  "/project/:id/leads/template": {
    visits: (f) => [{ path: `/project/${f.projectId}/leads/template` }, { path: `/project/${f.projectId}/leads/template`, ...form({ subject: "Hi {nobody}" }) }],
  },
  "/project/:id/leads/capture": {
    visits: (f) => [{ path: `/project/${f.projectId}/leads/capture` }, { path: `/project/${f.projectId}/leads/capture`, ...form({ key: "not-a-key", codeId: "plain", name: "", email: "" }) }],
  },
  "/project/:id/leads/:leadId/reply": {
    visits: (f) => [{ path: `/project/${f.projectId}/leads/${f.leadId}/reply` }, { path: `/project/${f.projectId}/leads/${f.leadId}/reply`, ...form({ subject: "" }) }],
  },
  "/project/:id/leads/:leadId/vcard.vcf": { visits: (f) => [{ path: `/project/${f.projectId}/leads/${f.leadId}/vcard.vcf` }] },
  "/project/:id/qr/sheet": { visits: (f) => [{ path: `/project/${f.projectId}/qr/sheet` }] },
  "/project/:id/qr/sheet.svg": { visits: (f) => [{ path: `/project/${f.projectId}/qr/sheet.svg?code=${f.qrId}` }] },
  "/project/:id/qr/:qrId/print.svg": { visits: (f) => [{ path: `/project/${f.projectId}/qr/${f.qrId}/print.svg` }] },
  "/project/:id/qr/:qrId/print": { visits: (f) => [{ path: `/project/${f.projectId}/qr/${f.qrId}/print` }] },
  "/project/:id/booth": { visits: (f) => [{ path: `/project/${f.projectId}/booth` }, { path: `/project/${f.projectId}/booth?key=${f.boothKey}` }] },
  "/project/:id/booth/stream": { visits: (f) => [{ path: `/project/${f.projectId}/booth/stream`, stream: true }] },
  "/project/:id/deck": {
    visits: (f) => [{ path: `/project/${f.projectId}/deck` }, { path: `/project/${f.projectId}/deck`, ...form({ intent: "download", download: "on" }) }],
  },
  // A published project's page images: the same bytes for everyone, for ever.
  "/deck/:deckId/:file": { publicFor: "everyone", visits: (f) => [{ path: `/deck/${f.deckId}/page-1-1080.webp` }] },
  "/project/:id/team": { visits: (f) => [{ path: `/project/${f.projectId}/team` }, { path: `/project/${f.projectId}/team`, ...form({ intent: "invite", email: "" }) }] },
  "/team/join": { visits: () => [{ path: "/team/join?token=not-a-token" }, { path: "/team/join", ...form({ token: "not-a-token" }) }] },
  "/saved": { publicFor: "anonymous", visits: () => [{ path: "/saved" }] },
  "/privacy": { visits: () => [{ path: "/privacy" }] },
  "/terms": { visits: () => [{ path: "/terms" }] },
  "/support": { visits: () => [{ path: "/support" }] },
  "/p/:slug": { visits: (f) => [{ path: `/p/${f.slug}` }] },
  "/projects/new": { visits: () => [{ path: "/projects/new" }] },
  "/projects/:id/edit": { visits: (f) => [{ path: `/projects/${f.projectId}/edit` }] },
  "/pledge-success": { visits: () => [{ path: "/pledge-success" }] },
  "/unsubscribe": {
    visits: () => [
      { path: "/unsubscribe?token=not-a-token" },
      { path: "/unsubscribe?confirm=not-a-token" },
      { path: "/unsubscribe?token=not-a-token", ...form({ intent: "unsubscribe" }) },
    ],
  },
  "/list-mail/confirm": { visits: () => [{ path: "/list-mail/confirm?token=not-a-token" }, { path: "/list-mail/confirm", ...form({ token: "not-a-token" }) }] },
  "/list-mail/stop": { visits: () => [{ path: "/list-mail/stop?token=not-a-token" }, { path: "/list-mail/stop", ...form({ token: "not-a-token" }) }] },
  "/follow/confirm": { visits: () => [{ path: "/follow/confirm?token=not-a-token" }, { path: "/follow/confirm", ...form({ token: "not-a-token" }) }] },
  "/unsubscribe/one-click": { visits: () => [{ path: "/unsubscribe/one-click?token=not-a-token", ...form({ "List-Unsubscribe": "One-Click" }) }] },
  "/app-icon-generator": { visits: () => [{ path: "/app-icon-generator" }] },
  "/manifest.webmanifest": { publicFor: "everyone", visits: () => [{ path: "/manifest.webmanifest" }] },
  "/pitch/:slug/manifest.webmanifest": { publicFor: "everyone", visits: (f) => [{ path: `/pitch/${f.slug}/manifest.webmanifest` }] },
  "/project/manifest.webmanifest": { publicFor: "everyone", visits: () => [{ path: "/project/manifest.webmanifest" }] },
  "/project/push-worker.js": { visits: () => [{ path: "/project/push-worker.js" }] },
  "/app-icons/:file": { publicFor: "everyone", visits: () => [{ path: "/app-icons/concept-1.png" }] },
  "/icons/:file": { publicFor: "everyone", visits: () => [{ path: "/icons/icon-192.png" }] },
  "/favicon.svg": { publicFor: "everyone", visits: () => [{ path: "/favicon.svg" }] },
  "/apple-touch-icon.png": { publicFor: "everyone", visits: () => [{ path: "/apple-touch-icon.png" }] },
  "/api/functions/submit-intro": {
    visits: (f) => [{ path: "/api/functions/submit-intro", ...json({ projectId: f.projectId, name: "Cache Walker", email: "walker@example.com", note: "Hello" }) }],
  },
  "/api/functions/subscribe-updates": {
    visits: (f) => [{ path: "/api/functions/subscribe-updates", ...json({ projectId: f.projectId, name: "Cache Walker", email: "walker@example.com", consent: true }) }],
  },
  "/api/functions/track-scan": { visits: (f) => [{ path: "/api/functions/track-scan", ...json({ projectId: f.projectId }) }] },
  "/api/functions/save-pitch": { visits: (f) => [{ path: "/api/functions/save-pitch", ...json({ slug: f.slug }) }] },
  "/api/functions/email-saved-list": { visits: (f) => [{ path: "/api/functions/email-saved-list", ...json({ email: "walker@example.com", slugs: [f.slug] }) }] },
  "/api/functions/handle-unsubscribe": { visits: (f) => [{ path: "/api/functions/handle-unsubscribe", ...json({ projectId: f.projectId, email: "walker@example.com" }) }] },
  "/api/functions/generate-qr-code": { visits: (f) => [{ path: "/api/functions/generate-qr-code", ...json({ projectId: f.projectId }) }] },
  "/api/functions/generate-app-icon": { visits: () => [{ path: "/api/functions/generate-app-icon", ...json({ concept: 1 }) }] },
  "/api/activity": { visits: () => [{ path: "/api/activity" }] },
  "/api/wall/:projectId/stream": { visits: (f) => [{ path: `/api/wall/${f.projectId}/stream`, stream: true }] },
  "/api/*": { visits: () => [{ path: "/api/no-such-function" }] },
  "*": { visits: () => [{ path: "/no-such-page" }] },
};

type RouteEntry = { path?: string; index?: boolean; file: string; children?: RouteEntry[] };
const flatten = (entries: readonly RouteEntry[]): RouteEntry[] => entries.flatMap((entry) => [entry, ...flatten(entry.children ?? [])]);
const routePath = (entry: RouteEntry) => (entry.index ? "/" : entry.path === "*" ? "*" : `/${entry.path}`);
/** The app's routes as app/routes.ts declares them; a page (.tsx) also answers `.data`, a resource route (.ts) does not. */
const declared = flatten(routes as RouteEntry[]).map((entry) => ({ path: routePath(entry), page: entry.file.endsWith(".tsx") }));

/** React Router's single-fetch address of a page's data: `/_root.data` for `/`, otherwise `{path}.data`. */
function dataPath(path: string): string {
  const [pathname = "", query] = path.split("?");
  return `${pathname === "/" ? "/_root" : pathname}.data${query ? `?${query}` : ""}`;
}

const isData = (path: string) => (path.split("?")[0] ?? "").endsWith(".data");
const PRIVATE = /^private, no-store(, no-transform)?$/;
const PHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1";

describe("caching: nothing personal is stored anywhere, on every route", () => {
  const e2e = setUpAppInBrowser();
  let fixture: Fixture;
  let ownerCookie: string;
  let visitorCookie: string;

  async function request(visit: Visit, cookie: string): Promise<Response> {
    const headers: Record<string, string> = { cookie, "x-forwarded-for": nextClientAddress(), origin: e2e.app.url, "user-agent": PHONE };
    let body: string | undefined;
    if (visit.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(visit.form).toString();
    } else if (visit.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(visit.json);
    }
    const controller = new AbortController();
    const response = await fetch(`${e2e.app.url}${visit.path}`, { method: visit.method ?? "GET", headers, body, redirect: "manual", signal: controller.signal });
    if (visit.stream) controller.abort();
    else await response.arrayBuffer();
    return response;
  }

  /** Every visit of every route, as documents and (for pages) `.data`, in the order app/routes.ts declares them. */
  function everyVisit(): Array<{ route: string; visit: Visit; publicFor?: RouteCase["publicFor"] }> {
    return declared.flatMap(({ path, page }) => {
      const routeCase = ROUTES[path]!;
      return routeCase.visits(fixture).flatMap((visit) => {
        const asData = page && !visit.method ? [{ route: path, visit: { ...visit, path: dataPath(visit.path) }, publicFor: routeCase.publicFor }] : [];
        return [{ route: path, visit, publicFor: routeCase.publicFor }, ...asData];
      });
    });
  }

  it("covers every route that app/routes.ts declares (a new route needs a line here)", () => {
    expect(declared.map((route) => route.path).sort()).toEqual(Object.keys(ROUTES).sort());
  });

  // A founder with a published and a draft project, a tracked code, a lead and a booth link; a returning visitor.
  beforeAll(async () => {
    const email = uniqueEmail("cache-owner");
    const { id: ownerId, cookie } = await signedInUser(e2e.app, email);
    ownerCookie = cookie;
    const project = await insertProject(e2e.app.dataDir, { title: "Cache Walk", ownerId, qrCodes: [{ label: "Stand" }], tiers: [{ label: "$1k", min: 1000, max: null }] });
    const draft = await insertProject(e2e.app.dataDir, { title: "Cache Walk Draft", ownerId, status: "draft" });
    await visitorAction(e2e.app, project.slug, project.qrCodeIds[0]!, { intent: "intro", name: "Lead Person", email: "lead.person@example.com", note: "Met at the stand" });
    const lead = await e2e.db.selectFrom("leads").select("id").where("project_id", "=", project.id).executeTakeFirstOrThrow();
    const created = await founderPost(e2e.app, ownerCookie, `/project/${project.id}/edit`, { intent: "create-booth-link", days: "3" });
    const boothKey = /booth\?key=([A-Za-z0-9_-]{43})/.exec(await created.text())?.[1];
    if (!boothKey) throw new Error("no booth link was created");
    const deck = new FormData();
    deck.set("intent", "upload");
    deck.set("deck", new Blob([Buffer.from(await makeDeckPdf(1))], { type: "application/pdf" }), "deck.pdf");
    const uploaded = await fetch(`${e2e.app.url}/project/${project.id}/deck`, { method: "POST", headers: { cookie: ownerCookie, origin: e2e.app.url }, body: deck });
    await uploaded.arrayBuffer();
    if (!uploaded.ok) throw new Error(`the deck upload answered ${uploaded.status}`);
    const deckOf = () => e2e.db.selectFrom("decks").select(["id", "status"]).where("project_id", "=", project.id).executeTakeFirst();
    // In a hook, where expect.poll cannot run: vi.waitFor polls the same way.
    await vi.waitFor(
      async () => {
        if ((await deckOf())?.status !== "ready") throw new Error("the deck is not drawn yet");
      },
      { timeout: 30_000, interval: 50 },
    );
    const deckId = (await deckOf())!.id;
    fixture = { projectId: project.id, slug: project.slug, draftSlug: draft.slug, qrId: project.qrCodeIds[0]!, leadId: lead.id, boothKey: boothKey!, deckId };

    // A returning visitor: the page door gave this browser its viewer id on its first load.
    const first = await fetch(`${e2e.app.url}/pitch/${project.slug}`, {
      headers: { "x-forwarded-for": nextClientAddress(), "user-agent": PHONE, "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" },
    });
    await first.arrayBuffer();
    visitorCookie = first.headers.getSetCookie().map((cookie) => cookie.split(";")[0]).join("; ");
    if (!visitorCookie.includes("pitchqr_viewer=")) throw new Error("the pitch page gave no viewer cookie");
  });

  it("answers the signed-in owner privately on every route, documents, .data and resources (only icons and manifests are public)", async () => {
    const failures: string[] = [];
    const visits = everyVisit().sort((a, b) => Number(a.route === "/auth/sign-out") - Number(b.route === "/auth/sign-out"));
    for (const { route, visit, publicFor } of visits) {
      const response = await request(visit, ownerCookie);
      const cacheControl = response.headers.get("cache-control") ?? "(none)";
      const where = `owner ${visit.method ?? "GET"} ${visit.path} (${route}) → ${response.status}, Cache-Control: ${cacheControl}`;
      if (publicFor === "everyone" && !isData(visit.path)) {
        if (!/\bpublic\b/.test(cacheControl) || response.headers.has("set-cookie")) failures.push(where);
      } else if (!PRIVATE.test(cacheControl)) failures.push(where);
    }
    expect(failures).toEqual([]);
  });

  it("answers an anonymous visitor privately too, except the public pitch page, /saved, icons and manifests, which vary on Cookie", async () => {
    const failures: string[] = [];
    for (const { route, visit, publicFor } of everyVisit()) {
      const response = await request(visit, visitorCookie);
      const cacheControl = response.headers.get("cache-control") ?? "(none)";
      const vary = response.headers.get("vary") ?? "";
      const where = `visitor ${visit.method ?? "GET"} ${visit.path} (${route}) → ${response.status}, Cache-Control: ${cacheControl}, Vary: ${vary}`;
      const plainAddress = !visit.method && !isData(visit.path) && !visit.path.includes("dialog=");
      const sharedDocument = publicFor === "anonymous" && plainAddress && response.status === 200 && !visit.path.includes(fixture.draftSlug);
      const sharedWithEveryAnonymousVisitor = cacheControl === "public, no-cache" && /\bcookie\b/i.test(vary) && !response.headers.has("set-cookie");
      if (publicFor === "everyone" && plainAddress) {
        if (!/\bpublic\b/.test(cacheControl) || response.headers.has("set-cookie")) failures.push(where);
      } else if (sharedDocument) {
        if (!sharedWithEveryAnonymousVisitor) failures.push(where);
      } else if (publicFor === "anonymous") {
        // Its data (the layout's, anonymous) may be shared the same way; anything else is private.
        if (!sharedWithEveryAnonymousVisitor && !PRIVATE.test(cacheControl)) failures.push(where);
      } else if (!PRIVATE.test(cacheControl)) failures.push(where);
    }
    expect(failures).toEqual([]);
  });

  it("Back after sign-out shows no founder page from the browser's cache: it asks the server, which asks for a sign-in", async () => {
    const { context } = await signedInContext(e2e.browser, e2e.app, uniqueEmail("cache-back"), { viewport: { width: 390, height: 844 } });
    try {
      const page = await context.newPage();
      await page.goto(`${e2e.app.url}/dashboard`);
      await page.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor();
      await page.goto(`${e2e.app.url}/privacy`);
      await waitForHydration(page);
      await page.getByRole("button", { name: "Account menu" }).click();
      await page.getByRole("menuitem", { name: "Sign Out" }).click();
      await page.waitForURL(`${e2e.app.url}/`);
      await page.getByRole("link", { name: "Sign In", exact: true }).waitFor();

      await page.goBack();
      await page.goBack();
      await expect.poll(() => new URL(page.url()).pathname).toBe("/auth");
      expect(new URL(page.url()).searchParams.get("returnTo")).toBe("/dashboard");
      expect(await page.getByRole("heading", { name: "Dashboard", level: 1 }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
