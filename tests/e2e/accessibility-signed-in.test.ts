// Accessibility of the founder's workspace, at phone and desktop sizes: every signed-in page with its data filled
// in (a project with metrics, points and tiers; QR codes with and without an event; an update; an intro, a follower
// and a signal), the account menu open, the pitch page as its owner sees it with each dialog open, and the toasts.
// axe-core (WCAG 2.0/2.1 A and AA, best practices) must find nothing. Adding a page is one line in PAGES.
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/db/client.server";
import { BEST_EVENT_MIN_VIEWERS } from "~/components/founder/insights/event-funnel";
import { submitIntro } from "~/modules/contacts/contacts.server";
import { introSchema } from "~/modules/contacts/intro-form";
import { validate } from "~/modules/forms/validation";
import { recordScans } from "~/modules/scans/scans.server";
import { testMailLinks } from "../support/fixtures";
import { axeViolations, formatViolations, openAccountMenu, waitForPageReady, type PageState } from "../support/axe";
import { DESKTOP, PHONE } from "../support/chromium.js";
import { waitForToast } from "../support/founder-e2e";
import { founderPost, visitorAction } from "../support/leads-e2e";
import { confirmFromOutbox, signInThroughPage, signUpAndSignIn, uniqueEmail } from "../support/sign-up";
import { setUpAppInBrowser } from "../support/e2e-app";
import { newClientContext } from "../support/clients";

const e2e = setUpAppInBrowser();
/** One founder (read-only for the checks below) and their project, set up over HTTP as the forms post. */
let founder: { email: string; cookie: string };
let project: Project;

beforeAll(async () => {
  const email = uniqueEmail("a11y");
  founder = { email, cookie: await signUpAndSignIn(e2e.app.url, email) };
  // Its address confirmed, so its test e-mail goes out; the banner an unconfirmed founder sees is checked in email-confirmation.test.ts.
  await confirmFromOutbox(e2e.db, email);
  const slug = `a11y-${Date.now().toString(36)}`;
  const created = await founderPost(e2e.app, founder.cookie, "/project/create", {
    title: "Harbor Cold Chain",
    slug,
    oneLiner: "Solar cold rooms for clinics",
    summary: "We rent solar-powered cold rooms to district clinics.",
    status: "published",
    metrics: JSON.stringify([{ label: "Pilot clinics", value: "12" }]),
    problemPoints: JSON.stringify(["A third of vaccines spoil between port and clinic", "Diesel generators fail"]),
    solutionPoints: JSON.stringify(["Solar cold rooms with remote alerts"]),
    tiers: JSON.stringify([
      { rangeLabel: "Angel", rangeMin: 5000, rangeMax: 25000, perks: ["Updates"] },
      { rangeLabel: "Lead", rangeMin: 250000, rangeMax: null, perks: [] },
    ]),
  });
  if (created.status !== 302) throw new Error(`project create answered ${created.status}: ${await created.text()}`);
  project = { id: new URL(created.headers.get("location")!, e2e.app.url).pathname.split("/")[2]!, slug };
  const edits: Record<string, string>[] = [
    { intent: "create-qr", label: "Booth 4", eventTag: "Web Summit" },
    { intent: "create-qr", label: "Flyer", eventTag: "" },
    { intent: "post-update", body: "Shipped remote temperature alerts" },
  ];
  for (const fields of edits) {
    const response = await founderPost(e2e.app, founder.cookie, `/project/${project.id}/edit`, fields);
    if (response.status !== 200) throw new Error(`${fields.intent} answered ${response.status}: ${await response.text()}`);
  }
  const [code] = await e2e.db.selectFrom("qr_codes").select("id").where("project_id", "=", project.id).where("event_tag", "is not", null).execute();
  project.qrCodeId = code!.id;
  const { id: tierId } = await e2e.db.selectFrom("signal_tiers").select("id").where("project_id", "=", project.id).orderBy("sort_order").executeTakeFirstOrThrow();
  await visitorAction(e2e.app, slug, code!.id, { intent: "intro", name: "Ada Marsh", email: "ada@example.com", note: "Happy to introduce you", roleTags: "Angel" });
  await visitorAction(e2e.app, slug, code!.id, { intent: "subscribe", name: "Grace Lin", email: "grace@example.com", consent: "on" });
  await visitorAction(e2e.app, slug, null, { intent: "signal", tierId, name: "Omar Haddad", email: "omar@example.com", message: "Loved the pilot", showName: "on" });
  ({ id: project.leadId } = await e2e.db.selectFrom("leads").select("id").where("project_id", "=", project.id).where("email", "=", "ada@example.com").executeTakeFirstOrThrow());
  // A person met at the booth with only a LinkedIn URL and a phone: their card asks for an e-mail (decision 92).
  const met = await founderPost(e2e.app, founder.cookie, `/project/${project.id}/leads/capture`, {
    key: crypto.randomUUID(),
    codeId: code!.id,
    name: "Jane Doe",
    email: "",
    linkedinUrl: "https://www.linkedin.com/in/jane-doe-1234",
    phone: "+49 151 1234 5678",
    temperature: "hot",
    note: "",
  });
  if (met.status !== 200) throw new Error(`capture answered ${met.status}: ${await met.text()}`);
  project.metLeadId = ((await met.json()) as { leadId: string }).leadId;
  // Enough unique viewers on the booth's code, one of whom acted, for analytics to name it the best event, with its badge.
  const database = openDatabase({ dialect: "sqlite", file: path.join(e2e.app.dataDir, "app.sqlite") });
  try {
    const viewers = Array.from({ length: BEST_EVENT_MIN_VIEWERS }, (_, index) => ({ projectId: project.id, qrCodeId: code!.id, viewerFingerprint: `a11y-viewer-${index}` }));
    const intro = validate(introSchema, { name: "Bea Scanned", email: "bea@example.com", note: "Met you at the booth" });
    if (!intro.ok) throw new Error(intro.formError);
    await whileLocked(() => recordScans(database.db, viewers));
    await whileLocked(() => submitIntro(database.db, testMailLinks, project.id, intro.data, { userId: null, identity: { viewerFingerprint: viewers[0]!.viewerFingerprint, addressHash: null } }));
  } finally {
    await database.close();
  }
});


/**
 * Runs a set-up transaction beside the running app's: SQLite refuses ("database is locked") a transaction whose read
 * snapshot went stale when the app wrote before it could write, and the same transaction run again succeeds.
 */
async function whileLocked<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= 5 || !(error instanceof Error) || !error.message.includes("database is locked")) throw error;
    }
  }
}

type Project = { id: string; slug: string; qrCodeId?: string; leadId?: string; metLeadId?: string };
const at = (suffix: string) => (p: Project) => `/project/${p.id}${suffix}`;
const ownerPitch = (query = "") => (p: Project) => `/pitch/${p.slug}${query}`;

const PAGES: PageState<Project>[] = [
  { name: "dashboard", path: () => "/dashboard" },
  { name: "dashboard, account menu open", path: () => "/dashboard", act: openAccountMenu },
  { name: "home, signed in", path: () => "/" },
  { name: "my projects", path: () => "/my-projects" },
  { name: "my projects, account menu open", path: () => "/my-projects", act: openAccountMenu },
  { name: "create project", path: () => "/project/create" },
  {
    name: "create project with errors",
    path: () => "/project/create",
    act: async (page) => {
      await page.getByRole("button", { name: "Create Project" }).click();
      await page.locator("[aria-invalid=true]").first().waitFor();
    },
  },
  { name: "edit project", path: at("/edit") },
  {
    name: "edit project, saved toast",
    path: at("/edit"),
    act: async (page) => {
      await page.getByRole("button", { name: "Update Project" }).click();
      await waitForToast(page, "Project updated successfully");
    },
  },
  { name: "qr codes", path: at("/qr-codes") },
  {
    name: "qr codes, duplicate label refused",
    path: at("/qr-codes"),
    act: async (page) => {
      const form = page.getByRole("form", { name: "Create QR code" });
      await form.getByLabel("Label", { exact: true }).fill("Booth 4");
      await form.getByRole("button", { name: "Generate QR Code" }).click();
      await form.getByText("A QR code with this label already exists").waitFor();
    },
  },
  {
    name: "qr codes, archive, end date and move open",
    path: at("/qr-codes"),
    act: async (page) => {
      await page.getByText("Archive, end date or move").first().click();
      await page.getByLabel("Event ends").nth(1).waitFor();
    },
  },
  { name: "print page", path: (p) => `/project/${p.id}/qr/${p.qrCodeId}/print` },
  { name: "event sheet", path: at("/qr/sheet") },
  {
    name: "booth screen",
    path: at("/booth"),
    act: async (page) => {
      await page.getByText("Live", { exact: true }).waitFor();
    },
  },
  {
    name: "booth screen, add a person refused empty",
    path: at("/booth"),
    act: async (page) => {
      await page.getByRole("button", { name: "Add a person" }).click();
      const sheet = page.getByRole("dialog", { name: "Add a person" });
      await sheet.getByRole("button", { name: "Save person" }).click();
      await sheet.getByText("Please fill in all required fields").first().waitFor();
    },
  },
  { name: "updates", path: at("/updates") },
  { name: "analytics", path: at("/analytics") },
  {
    name: "analytics, the best event's badge",
    path: at("/analytics"),
    act: async (page) => {
      await page.getByText("Best", { exact: true }).locator("visible=true").first().waitFor();
    },
  },
  { name: "leads", path: at("/leads") },
  {
    name: "leads, add a person",
    path: at("/leads"),
    act: async (page) => {
      await page.getByRole("button", { name: "Add a person" }).click();
      await page.getByRole("dialog", { name: "Add a person" }).getByLabel("Where you met").waitFor();
    },
  },
  { name: "leads, filtered to none", path: at("/leads?status=passed") },
  { name: "lead settings", path: at("/leads/settings") },
  {
    name: "lead settings, test e-mail kept on disk",
    path: at("/leads/settings"),
    act: async (page) => {
      await page.getByRole("button", { name: "Send me a test e-mail" }).click();
      await page.locator("[data-test-mail-outcome]").waitFor();
    },
  },
  { name: "leads, one lead from an alert link", path: at("/leads?lead=no-such-lead") },
  {
    name: "leads, a person met without an e-mail, e-mail refused",
    path: (p) => `/project/${p.id}/leads?lead=${p.metLeadId}`,
    act: async (page) => {
      const form = page.getByRole("form", { name: "Add an e-mail for Jane Doe" });
      await form.getByLabel("Add an e-mail to reply").fill("not-an-address");
      await form.getByRole("button", { name: "Save e-mail" }).click();
      await form.getByText("Please enter a valid email address").waitFor();
    },
  },
  { name: "reply composer", path: (p) => `/project/${p.id}/leads/${p.leadId}/reply` },
  {
    name: "reply composer, meeting fields refused",
    path: (p) => `/project/${p.id}/leads/${p.leadId}/reply`,
    act: async (page) => {
      await page.getByLabel("Propose a meeting").check();
      await page.getByRole("button", { name: "Send reply" }).click();
      await page.getByText("Choose the meeting's date").waitFor();
    },
  },
  { name: "follow-up template", path: at("/leads/template") },
  { name: "team", path: at("/team") },
  {
    name: "team, invitation refused",
    path: at("/team"),
    act: async (page) => {
      await page.getByRole("textbox", { name: "E-mail" }).fill("not-an-address");
      await page.getByRole("button", { name: "Send invitation" }).click();
      await page.getByText("Invalid email address").waitFor();
    },
  },
  { name: "pitch page as owner", path: ownerPitch() },
  { name: "pitch page as owner, account menu open", path: ownerPitch(), act: openAccountMenu },
  { name: "pitch page as owner, intro dialog", path: ownerPitch("?dialog=intro") },
  { name: "pitch page as owner, subscribe dialog", path: ownerPitch("?dialog=subscribe") },
  { name: "pitch page as owner, signal dialog", path: ownerPitch("?dialog=signal") },
  { name: "pitch page as owner, phone dialog", path: ownerPitch("?dialog=phone") },
  { name: "404, signed in", path: () => "/no-such-page" },
];

describe.each([
  ["phone", PHONE],
  ["desktop", DESKTOP],
])("signed in on a %s: axe finds no violations", (label, viewport) => {
  it.each(PAGES.map((state) => [state.name, state] as const))("%s", async (_name, state) => {
    // bypassCSP lets the test inject axe-core; the app's policy itself is untouched.
    const { context } = await newClientContext(e2e.browser, { viewport, bypassCSP: true });
    await context.addCookies(
      founder.cookie.split("; ").map((pair) => {
        const [name, ...value] = pair.split("=");
        return { name: name!, value: value.join("="), url: e2e.app.url };
      }),
    );
    const page = await context.newPage();
    try {
      await page.goto(`${e2e.app.url}${state.path(project)}`);
      await waitForPageReady(page);
      await state.act?.(page, project);
      const violations = await axeViolations(page);
      expect(violations, formatViolations(`${state.name} (${label}, ${state.path(project)})`, violations)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("signing in: the dashboard with its 'Successfully signed in!' toast", async () => {
    const { context } = await newClientContext(e2e.browser, { viewport, bypassCSP: true });
    const page = await context.newPage();
    try {
      await signInThroughPage(page, e2e.app.url, founder.email, "secret123", "/dashboard");
      await waitForPageReady(page);
      await waitForToast(page, "Successfully signed in!");
      const violations = await axeViolations(page);
      expect(violations, formatViolations(`dashboard after signing in (${label})`, violations)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
