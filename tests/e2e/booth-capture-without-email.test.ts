// A person met at the booth with only a LinkedIn URL (decision 92), in Chromium on a phone
// (390x844): a name alone is refused with the rule; the URL suggests the name from its slug; saved, the person is in
// the inbox with "No e-mail", their LinkedIn and "Add an e-mail to reply" instead of Reply; once the e-mail is added,
// Reply is there. A person with only a phone waits offline on the device and is sent, phone and all, on reconnect.
import { describe, expect, it } from "vitest";
import { PHONE } from "../support/chromium.js";
import { setUpAppInBrowser } from "../support/e2e-app";
import { insertProject } from "../support/pitch-e2e";
import { signedInContext, uniqueEmail } from "../support/sign-up";
import { founderPost } from "../support/leads-e2e";
import { cookieHeader, waitForHydration } from "../support/clients";

const e2e = setUpAppInBrowser();

describe("a person met without an e-mail", () => {
  it("is saved from a LinkedIn URL alone, named from its slug, and answered once an e-mail is added", { timeout: 90_000 }, async () => {
    const ownerEmail = uniqueEmail("met-no-email");
    const { context, user: owner } = await signedInContext(e2e.browser, e2e.app, ownerEmail, { viewport: PHONE, hasTouch: true, isMobile: true });
    const project = await insertProject(e2e.app.dataDir, { title: "Harbor Cold Chain", ownerId: owner.id, qrCodes: [{ label: "Booth", eventTag: "demoday-2026" }] });
    const page = await context.newPage();
    await page.goto(`${e2e.app.url}/project/${project.id}/booth`);
    await waitForHydration(page);

    await page.getByRole("button", { name: "Add a person" }).click();
    const sheet = page.getByRole("dialog", { name: "Add a person" });
    await sheet.getByText("Their name, and one of e-mail, LinkedIn or phone.").waitFor();
    // A name alone is not enough, and the sheet says what is.
    await sheet.getByLabel("Name").fill("Someone");
    await sheet.getByRole("button", { name: "Save person" }).click();
    await sheet.getByText("Add their e-mail, LinkedIn URL or phone: a name and one of these saves a person").waitFor();
    // The server runs the same rule on what a device sends.
    const nameOnly = { key: crypto.randomUUID(), codeId: project.qrCodeIds[0]!, name: "Someone", email: "", linkedinUrl: "", phone: "", temperature: "", note: "" };
    const refused = await founderPost(e2e.app, await cookieHeader(context), `/project/${project.id}/leads/capture`, nameOnly);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ ok: false, formError: "Add their e-mail, LinkedIn URL or phone: a name and one of these saves a person" });
    expect(await e2e.db.selectFrom("lead_captures").select("id").where("project_id", "=", project.id).execute()).toEqual([]);

    // With the name empty, the LinkedIn URL suggests it; the founder keeps it.
    await sheet.getByLabel("Name").fill("");
    await sheet.getByLabel("LinkedIn").fill("https://www.linkedin.com/in/jane-doe-1234");
    expect(await sheet.getByLabel("Name").inputValue()).toBe("Jane Doe");
    await sheet.getByText("Suggested from their LinkedIn URL").waitFor();
    // The rule is met: its message is gone before saving.
    expect(await sheet.getByText("Add their e-mail, LinkedIn URL or phone").count()).toBe(0);
    await sheet.getByText("Hot", { exact: true }).click();
    await sheet.getByRole("button", { name: "Save person" }).click();
    await page.getByRole("status").filter({ hasText: "Saved: Jane Doe added" }).waitFor();
    expect(await e2e.db.selectFrom("leads").select(["name", "email", "met_key"]).where("project_id", "=", project.id).execute()).toEqual([{ name: "Jane Doe", email: null, met_key: "linkedin:in/jane-doe-1234" }]);

    // Offline, a person with only a phone waits on the device with it, and is sent with it on reconnect.
    await sheet.waitFor({ state: "detached" });
    await context.setOffline(true);
    await page.getByRole("button", { name: "Add a person" }).click();
    await sheet.getByLabel("Name").fill("Omar Haddad");
    await sheet.getByLabel("Phone").fill("+44 7700 900123");
    await sheet.getByRole("button", { name: "Save person" }).click();
    await page.getByRole("list", { name: "People not yet synced" }).getByText("Omar Haddad — not yet synced").waitFor();
    await context.setOffline(false);
    await page.getByRole("status").filter({ hasText: "Saved: Omar Haddad added" }).waitFor({ timeout: 35_000 });
    expect(await e2e.db.selectFrom("lead_captures").select(["name", "email", "phone"]).where("project_id", "=", project.id).where("name", "=", "Omar Haddad").execute()).toEqual([{ name: "Omar Haddad", email: null, phone: "+44 7700 900123" }]);

    // The inbox: no e-mail, their LinkedIn, and the field to add one instead of Reply.
    await page.goto(`${e2e.app.url}/project/${project.id}/leads`);
    await waitForHydration(page);
    const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Jane Doe" }) });
    await card.getByText("No e-mail", { exact: true }).waitFor();
    expect(await card.getByRole("link", { name: "LinkedIn" }).first().getAttribute("href")).toBe("https://www.linkedin.com/in/jane-doe-1234");
    const addEmail = card.getByLabel("Add an e-mail to reply");
    await addEmail.waitFor();
    expect(await card.getByRole("link", { name: "Reply to Jane Doe" }).count()).toBe(0);
    // Everything a phone shows of the card fits its width: nothing to scroll sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    await addEmail.fill("not-an-address");
    await card.getByRole("button", { name: "Save e-mail" }).click();
    await card.getByText("Please enter a valid email address").waitFor();
    await addEmail.fill("Jane@Example.com");
    await card.getByRole("button", { name: "Save e-mail" }).click();
    await card.getByRole("link", { name: "Reply to Jane Doe" }).waitFor();
    await card.getByRole("link", { name: "jane@example.com" }).waitFor();
    expect(await card.getByLabel("Add an e-mail to reply").count()).toBe(0);
    expect(await e2e.db.selectFrom("leads").select("email").where("project_id", "=", project.id).where("name", "=", "Jane Doe").execute()).toEqual([{ email: "jane@example.com" }]);
    await context.close();
  });
});
