// Access control for every owner-only page, action and API, over HTTP against the built app: a signed-out
// visitor goes to /auth (pages) or gets 401 (APIs); another signed-in user gets 'Project not found or access
// denied' / 404 and none of the project's private data; the owner succeeds.
import { beforeAll, describe, expect, it } from "vitest";
import { setUpAppInBrowser } from "../support/e2e-app";
import { signUpAndSignIn } from "../support/sign-up";
import { locationOf, nextClientAddress } from "../support/clients";
import { countRows } from "../support/test-db";

const e2e = setUpAppInBrowser();
const owner = { cookie: "", email: `owner-${Date.now()}@example.com` };
const intruder = { cookie: "", email: `intruder-${Date.now()}@example.com` };
let projectId = "";
let slug = "";
let qrCodeId = "";
let leadId = "";

const PHONE_BROWSER = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148";

function request(pathname: string, options: { cookie?: string; method?: string; body?: BodyInit; json?: unknown } = {}) {
  const headers: Record<string, string> = { origin: e2e.app.url, "x-forwarded-for": nextClientAddress(), "user-agent": PHONE_BROWSER };
  if (options.cookie) headers.cookie = options.cookie;
  let body = options.body;
  if (options.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(options.json);
  }
  return fetch(`${e2e.app.url}${pathname}`, { method: options.method ?? "GET", headers, body, redirect: "manual" });
}

function projectForm(fields: Record<string, string> = {}) {
  return new URLSearchParams({
    title: "Access Test",
    slug: `access-test-${Date.now()}`,
    oneLiner: "Only mine",
    status: "published",
    metrics: JSON.stringify([{ label: "MRR", value: "$1k" }]),
    problemPoints: "[]",
    solutionPoints: "[]",
    tiers: JSON.stringify([{ rangeLabel: "Angel", rangeMin: 1000, rangeMax: null, perks: [] }]),
    ...fields,
  });
}

beforeAll(async () => {
  owner.cookie = await signUpAndSignIn(e2e.app.url, owner.email);
  intruder.cookie = await signUpAndSignIn(e2e.app.url, intruder.email);

  const created = await request("/project/create", { cookie: owner.cookie, method: "POST", body: projectForm() });
  expect(created.status).toBe(302);
  const edit = locationOf(created, e2e.app.url).pathname;
  projectId = edit.split("/")[2] ?? "";
  ({ slug } = await e2e.db.selectFrom("projects").select("slug").where("id", "=", projectId).executeTakeFirstOrThrow());

  const qr = await request(`/project/${projectId}/edit`, {
    cookie: owner.cookie,
    method: "POST",
    body: new URLSearchParams({ intent: "create-qr", label: "Booth", eventTag: "Expo" }),
  });
  expect(qr.status).toBe(200);
  ({ id: qrCodeId } = await e2e.db.selectFrom("qr_codes").select("id").where("project_id", "=", projectId).executeTakeFirstOrThrow());

  const intro = await request("/api/functions/submit-intro", {
    method: "POST",
    json: { projectId, contact: { name: "Ada Private", email: "ada-private@example.com", linkedinUrl: null }, note: "Met at the booth", roleTags: [] },
  });
  expect(intro.status, await intro.text()).toBe(200);
  ({ id: leadId } = await e2e.db.selectFrom("leads").select("id").where("project_id", "=", projectId).executeTakeFirstOrThrow());
});

function leadTriage() {
  return e2e.db.selectFrom("leads").select(["status", "note"]).where("id", "=", leadId).executeTakeFirst();
}

const projectTitle = async () => (await e2e.db.selectFrom("projects").select("title").where("id", "=", projectId).executeTakeFirstOrThrow()).title;
const counts = async () => ({ codes: await countRows(e2e.db.selectFrom("qr_codes")), invitations: await countRows(e2e.db.selectFrom("team_invitations")) });

const pages = [
  { name: "edit page", path: () => `/project/${projectId}/edit` },
  { name: "QR codes page", path: () => `/project/${projectId}/qr-codes` },
  { name: "updates page", path: () => `/project/${projectId}/updates` },
  { name: "print page", path: () => `/project/${projectId}/qr/${qrCodeId}/print` },
  { name: "analytics page", path: () => `/project/${projectId}/analytics` },
  { name: "leads page", path: () => `/project/${projectId}/leads` },
  { name: "alerts and webhooks page", path: () => `/project/${projectId}/leads/settings` },
  { name: "booth screen", path: () => `/project/${projectId}/booth` },
];

describe.each(pages)("$name", ({ path: pagePath }) => {
  it("sends a signed-out visitor to /auth with the way back", async () => {
    const response = await request(pagePath());
    expect(response.status).toBe(302);
    const location = locationOf(response, e2e.app.url);
    expect(location.pathname).toBe("/auth");
    expect(location.searchParams.get("returnTo")).toBe(pagePath());
  });

  it("sends another founder to /my-projects with 'Project not found or access denied', showing nothing of the project", async () => {
    const response = await request(pagePath(), { cookie: intruder.cookie });
    expect(response.status).toBe(302);
    expect(locationOf(response, e2e.app.url).pathname).toBe("/my-projects");
    const flash = response.headers.getSetCookie().find((cookie) => cookie.startsWith("flash="))?.split(";")[0] ?? "";
    const landing = await request("/my-projects", { cookie: `${intruder.cookie}; ${flash}` });
    const html = await landing.text();
    expect(html).toContain("Project not found or access denied");
    expect(html).not.toContain("Access Test");
  });

  it("shows the owner the page", async () => {
    const response = await request(pagePath(), { cookie: owner.cookie });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Access Test");
  });
});

describe("owner-only actions and APIs", () => {
  it("saving the project: signed out → /auth, another founder → /my-projects and nothing changes, owner → saved", async () => {
    const save = (cookie?: string, title = "Hijacked") =>
      request(`/project/${projectId}/edit`, { cookie, method: "POST", body: projectForm({ intent: "save", slug, title }) });
    const anonymous = await save();
    expect(anonymous.status).toBe(302);
    expect(locationOf(anonymous, e2e.app.url).pathname).toBe("/auth");
    const other = await save(intruder.cookie);
    expect(other.status).toBe(302);
    expect(locationOf(other, e2e.app.url).pathname).toBe("/my-projects");
    expect(await projectTitle()).toBe("Access Test");
    const mine = await save(owner.cookie, "Access Test");
    expect(mine.status).toBe(200);
    expect(await projectTitle()).toBe("Access Test");
  });

  it("creating and deleting QR codes: another founder is sent away and the code stays", async () => {
    const create = await request(`/project/${projectId}/edit`, {
      cookie: intruder.cookie,
      method: "POST",
      body: new URLSearchParams({ intent: "create-qr", label: "Intruder" }),
    });
    expect(locationOf(create, e2e.app.url).pathname).toBe("/my-projects");
    const remove = await request(`/project/${projectId}/edit`, {
      cookie: intruder.cookie,
      method: "POST",
      body: new URLSearchParams({ intent: "delete-qr", qrCodeId }),
    });
    expect(locationOf(remove, e2e.app.url).pathname).toBe("/my-projects");
    expect(await e2e.db.selectFrom("qr_codes").select("label").where("project_id", "=", projectId).execute()).toEqual([{ label: "Booth" }]);
  });

  it("creating and revoking booth links: another founder is sent away and no link is made or ended", async () => {
    const mine = await request(`/project/${projectId}/edit`, { cookie: owner.cookie, method: "POST", body: new URLSearchParams({ intent: "create-booth-link" }) });
    expect(mine.status).toBe(200);
    const { id: linkId } = await e2e.db.selectFrom("booth_links").select("id").where("project_id", "=", projectId).executeTakeFirstOrThrow();
    const create = await request(`/project/${projectId}/edit`, {
      cookie: intruder.cookie,
      method: "POST",
      body: new URLSearchParams({ intent: "create-booth-link", days: "7" }),
    });
    expect(locationOf(create, e2e.app.url).pathname).toBe("/my-projects");
    const revoke = await request(`/project/${projectId}/edit`, {
      cookie: intruder.cookie,
      method: "POST",
      body: new URLSearchParams({ intent: "revoke-booth-link", linkId }),
    });
    expect(locationOf(revoke, e2e.app.url).pathname).toBe("/my-projects");
    const badDays = await request(`/project/${projectId}/edit`, { cookie: owner.cookie, method: "POST", body: new URLSearchParams({ intent: "create-booth-link", days: "30" }) });
    expect(badDays.status).toBe(400);
    expect(await e2e.db.selectFrom("booth_links").select("revoked_at").where("project_id", "=", projectId).execute()).toEqual([{ revoked_at: null }]);
  });

  it("generate-qr-code: 401 signed out, 404 for another founder, the owner gets the PNG and SVG", async () => {
    const call = (cookie?: string) => request("/api/functions/generate-qr-code", { cookie, method: "POST", json: { slug, qrCodeId } });
    const anonymous = await call();
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toHaveProperty("error");
    expect((await call(intruder.cookie)).status).toBe(404);
    const mine = await call(owner.cookie);
    expect(mine.status).toBe(200);
    const body = (await mine.json()) as { png: string; svg: string; url: string; pngFileName: string };
    expect(body.png).toMatch(/^data:image\/png;base64,/);
    expect(body.url).toBe(`${e2e.app.url}/pitch/${slug}?qr=${qrCodeId}`);
    expect(body.pngFileName).toBe(`${slug}-Booth-qr.png`);
  });

  it("print sheet: 401 signed out, 404 for another founder, the owner gets the SVG as a download", async () => {
    const sheet = () => `/project/${projectId}/qr/${qrCodeId}/print.svg`;
    const anonymous = await request(sheet());
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toHaveProperty("error");
    const other = await request(sheet(), { cookie: intruder.cookie });
    expect(other.status).toBe(404);
    expect(await other.text()).not.toContain("Access Test");
    const mine = await request(sheet(), { cookie: owner.cookie });
    expect(mine.status).toBe(200);
    expect(mine.headers.get("content-disposition")).toContain(`${slug}-Booth-print-a6.svg`);
    expect(await mine.text()).toContain(">Access Test</text>");
  });

  it("CSV export: 401 signed out, 404 for another founder, the owner gets the file", async () => {
    expect((await request(`/project/${projectId}/contacts.csv`)).status).toBe(401);
    expect((await request(`/project/${projectId}/contacts.csv`, { cookie: intruder.cookie })).status).toBe(404);
    const mine = await request(`/project/${projectId}/contacts.csv`, { cookie: owner.cookie });
    expect(mine.status).toBe(200);
    expect(mine.headers.get("content-disposition")).toContain("Access-Test-contacts.csv");
    const bytes = Buffer.from(await mine.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString("utf8").split("\r\n")[0]).toMatch(/^Name,Email,Intent,Role Tags,LinkedIn,Note,Created At,Tier,Range,Message,Source,Event tag,/);
  });

  it("lead status and note: signed out → /auth, another founder → /my-projects and nothing changes, owner → saved", async () => {
    const triage = (cookie?: string, fields: Record<string, string> = {}) =>
      request(`/project/${projectId}/leads`, {
        cookie,
        method: "POST",
        body: new URLSearchParams({ intent: "triage", leadId, status: "passed", note: "intruder was here", ...fields }),
      });
    const anonymous = await triage();
    expect(anonymous.status).toBe(302);
    expect(locationOf(anonymous, e2e.app.url).pathname).toBe("/auth");
    const other = await triage(intruder.cookie);
    expect(other.status).toBe(302);
    expect(locationOf(other, e2e.app.url).pathname).toBe("/my-projects");
    // The same post as a fetcher would send it: the answer is the 404 message, not the lead.
    const otherData = await request(`/project/${projectId}/leads.data`, {
      cookie: intruder.cookie,
      method: "POST",
      body: new URLSearchParams({ intent: "triage", leadId, status: "passed", note: "intruder was here" }),
    });
    expect(otherData.status).toBe(404);
    expect(await otherData.text()).toContain("Project not found or access denied");
    expect(await leadTriage()).toEqual({ status: "new", note: null });

    const tooLong = await triage(owner.cookie, { status: "contacted", note: "x".repeat(2_001) });
    expect(tooLong.status).toBe(400);
    expect(await tooLong.text()).toContain("Note must be at most 2,000 characters");
    const unknownStatus = await triage(owner.cookie, { status: "won", note: "" });
    expect(unknownStatus.status).toBe(400);
    expect(await leadTriage()).toEqual({ status: "new", note: null });

    const mine = await triage(owner.cookie, { status: "contacted", note: "Call on Tuesday" });
    expect(mine.status).toBe(200);
    expect(await leadTriage()).toEqual({ status: "contacted", note: "Call on Tuesday" });
  });

  it("adding a person met in person: 401 signed out, 404 for another founder and nothing saved, the owner → saved", async () => {
    const capture = (cookie: string | undefined, key = crypto.randomUUID()) =>
      request(`/project/${projectId}/leads/capture`, {
        cookie,
        method: "POST",
        body: new URLSearchParams({ key, codeId: "plain", name: "Met Person", email: "met.person@example.com", linkedinUrl: "", temperature: "hot", note: "" }),
      });
    const captured = () => e2e.db.selectFrom("lead_captures").select("added_by").where("project_id", "=", projectId).execute();
    const anonymous = await capture(undefined);
    expect(anonymous.status).toBe(401);
    const other = await capture(intruder.cookie);
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ ok: false, formError: "Project not found or access denied" });
    expect(await captured()).toEqual([]);
    const mine = await capture(owner.cookie);
    expect(mine.status, await mine.clone().text()).toBe(200);
    expect(await mine.json()).toMatchObject({ ok: true, merged: false, message: "Met Person added" });
    expect(await captured()).toHaveLength(1);
  });

  it("vCards: 401 signed out, 404 for another founder, the owner gets the .vcf", async () => {
    for (const vcf of [`/project/${projectId}/leads/${leadId}/vcard.vcf`, `/project/${projectId}/leads.vcf`]) {
      const anonymous = await request(vcf);
      expect(anonymous.status).toBe(401);
      const other = await request(vcf, { cookie: intruder.cookie });
      expect(other.status).toBe(404);
      const otherText = await other.text();
      expect(otherText).toContain("Project not found or access denied");
      expect(otherText).not.toContain("Ada Private");
      const mine = await request(vcf, { cookie: owner.cookie });
      expect(mine.status).toBe(200);
      expect(mine.headers.get("content-type")).toBe("text/vcard; charset=utf-8");
      expect(mine.headers.get("content-disposition")).toMatch(/\.vcf"/);
      expect(await mine.text()).toContain("FN:Ada Private\r\n");
    }
  });

  it("alerts and webhooks: signed out → /auth, another founder → /my-projects and nothing changes, internal URLs refused, owner → saved", async () => {
    const settings = (cookie: string | undefined, fields: Record<string, string>) =>
      request(`/project/${projectId}/leads/settings`, { cookie, method: "POST", body: new URLSearchParams(fields) });
    const rows = async () => ({
      alerts: await e2e.db.selectFrom("project_alert_settings").select(["intro_alerts", "signal_alerts"]).where("project_id", "=", projectId).execute(),
      webhooks: await e2e.db.selectFrom("webhook_endpoints").select("url").where("project_id", "=", projectId).execute(),
      devices: await e2e.db.selectFrom("push_subscriptions").select("endpoint").execute(),
    });
    for (const fields of <Record<string, string>[]>[
      { intent: "alerts", introAlerts: "off", signalAlerts: "off" },
      { intent: "morning-report", morningReport: "off" },
      { intent: "add-webhook", url: "https://hooks.example.com/in" },
      { intent: "channels", pushIntro: "on" },
      { intent: "slack-url", slackUrl: "https://hooks.slack.com/services/T000/B000/XXXXXXXX" },
      { intent: "remove-slack" },
      {
        intent: "push-on",
        endpoint: "https://fcm.googleapis.com/fcm/send/intruder",
        p256dh: `B${"A".repeat(86)}`,
        auth: "A".repeat(22),
        device: "Intruder phone",
      },
    ]) {
      const anonymous = await settings(undefined, fields);
      expect(locationOf(anonymous, e2e.app.url).pathname).toBe("/auth");
      const other = await settings(intruder.cookie, fields);
      expect(other.status).toBe(302);
      expect(locationOf(other, e2e.app.url).pathname).toBe("/my-projects");
    }
    expect(await rows()).toEqual({ alerts: [], webhooks: [], devices: [] });

    for (const url of ["http://hooks.example.com/in", "https://127.0.0.1/in", "https://10.0.0.8/in", "https://169.254.169.254/latest", "https://[::1]/in", "https://localhost/in"]) {
      const refused = await settings(owner.cookie, { intent: "add-webhook", url });
      expect(refused.status, url).toBe(400);
      expect(await refused.text()).toMatch(/must start with https:\/\/|points inside a private network/);
    }
    const badMode = await settings(owner.cookie, { intent: "alerts", introAlerts: "hourly", signalAlerts: "off" });
    expect(badMode.status).toBe(400);
    const badReport = await settings(owner.cookie, { intent: "morning-report", morningReport: "sometimes" });
    expect(badReport.status).toBe(400);
    expect(await badReport.text()).toContain("Choose whether to send the morning-after report");
    expect(await rows()).toEqual({ alerts: [], webhooks: [], devices: [] });

    const mine = await settings(owner.cookie, { intent: "alerts", introAlerts: "daily", signalAlerts: "off" });
    expect(mine.status).toBe(200);
    expect((await rows()).alerts).toEqual([{ intro_alerts: "daily", signal_alerts: "off" }]);
    expect((await settings(owner.cookie, { intent: "morning-report", morningReport: "off" })).status).toBe(200);
    expect(await e2e.db.selectFrom("project_alert_settings").select("morning_report").where("project_id", "=", projectId).executeTakeFirst()).toEqual({ morning_report: false });
  });

  it("activity feed: 401 signed out, empty for another founder, the owner's own items for the owner", async () => {
    await request("/api/functions/track-scan", {
      method: "POST",
      json: { projectId, qrCodeId, viewerFingerprint: "access-test-viewer" },
    }).then(async (response) => expect(response.status, await response.text()).toBeLessThan(300));
    expect((await request("/api/activity")).status).toBe(401);
    const other = (await (await request("/api/activity", { cookie: intruder.cookie })).json()) as { items: unknown[] };
    expect(other.items).toEqual([]);
    const mine = (await (await request("/api/activity", { cookie: owner.cookie })).json()) as { items: { title: string }[] };
    expect(mine.items.map((item) => item.title)).toContain("New scan from Booth");
  });
});

// Decision 61: the same functions for each role of the team, over HTTP. Members join the way a
// person does: the owner invites them, and they post the mailed link's token to /team/join.
describe("each role over HTTP", () => {
  const members: Record<"co-founder" | "staff" | "viewer", string> = { "co-founder": "", staff: "", viewer: "" };

  beforeAll(async () => {
    for (const role of Object.keys(members) as (keyof typeof members)[]) {
      const email = `${role}-${Date.now()}@example.com`;
      members[role] = await signUpAndSignIn(e2e.app.url, email);
      const invited = await request(`/project/${projectId}/team`, { cookie: owner.cookie, method: "POST", body: new URLSearchParams({ intent: "invite", email, role }) });
      expect(invited.status).toBe(200);
      const mail = await e2e.db.selectFrom("mail_outbox").select("text_body").where("kind", "=", "team-invitation").where("recipient", "=", email).executeTakeFirstOrThrow();
      const token = /\/team\/join\?token=([A-Za-z0-9_-]+)/.exec(mail.text_body)![1]!;
      const joined = await request("/team/join", { cookie: members[role], method: "POST", body: new URLSearchParams({ token }) });
      expect(locationOf(joined, e2e.app.url).pathname).toBe(`/project/${projectId}/leads`);
    }
  });

  const post = (pathname: string, fields: Record<string, string>) => (cookie: string) => request(pathname, { cookie, method: "POST", body: new URLSearchParams(fields) });
  /** Each function, what it needs, and who may: the roles table of decision 61. */
  const FUNCTIONS: { name: string; call: (cookie: string) => Promise<Response>; allowed: (keyof typeof members)[]; refusal: number | "sent away" }[] = [
    { name: "analytics page", call: (cookie) => request(`/project/${projectId}/analytics`, { cookie }), allowed: ["co-founder", "staff", "viewer"], refusal: "sent away" },
    { name: "edit page", call: (cookie) => request(`/project/${projectId}/edit`, { cookie }), allowed: ["co-founder"], refusal: "sent away" },
    { name: "booth screen", call: (cookie) => request(`/project/${projectId}/booth`, { cookie }), allowed: ["co-founder", "staff"], refusal: "sent away" },
    { name: "CSV export", call: (cookie) => request(`/project/${projectId}/contacts.csv`, { cookie }), allowed: ["co-founder"], refusal: 403 },
    { name: "vCards download", call: (cookie) => request(`/project/${projectId}/leads.vcf`, { cookie }), allowed: ["co-founder"], refusal: 403 },
    { name: "lead status", call: (cookie) => post(`/project/${projectId}/leads`, { intent: "temperature", leadId, temperature: "warm" })(cookie), allowed: ["co-founder", "staff"], refusal: 403 },
    { name: "QR code create", call: (cookie) => post(`/project/${projectId}/edit`, { intent: "create-qr", label: `Role ${crypto.randomUUID().slice(0, 6)}` })(cookie), allowed: ["co-founder"], refusal: "sent away" },
    { name: "qualifying question", call: (cookie) => post(`/project/${projectId}/leads/settings`, { intent: "question", prompt: "" })(cookie), allowed: ["co-founder"], refusal: 403 },
    {
      name: "morning-after report switch",
      call: (cookie) => post(`/project/${projectId}/leads/settings`, { intent: "morning-report", morningReport: "on" })(cookie),
      allowed: ["co-founder"],
      refusal: 403,
    },
    { name: "team invitation", call: (cookie) => post(`/project/${projectId}/team`, { intent: "invite", email: `x-${crypto.randomUUID().slice(0, 6)}@example.com`, role: "viewer" })(cookie), allowed: [], refusal: 403 },
  ];

  it.each(FUNCTIONS)("$name: the roles that may succeed, the others are refused and nothing changes", async ({ call, allowed, refusal }) => {
    const before = await counts();
    for (const role of (Object.keys(members) as (keyof typeof members)[]).filter((candidate) => !allowed.includes(candidate))) {
      const response = await call(members[role]);
      if (refusal === "sent away") {
        expect(response.status, role).toBe(302);
        expect(locationOf(response, e2e.app.url).pathname, role).toBe("/my-projects");
      } else expect(response.status, role).toBe(refusal);
    }
    expect(await counts()).toEqual(before);
    for (const role of allowed) {
      const response = await call(members[role]);
      expect(response.status, role).toBe(200);
      await response.arrayBuffer();
    }
  });
});
