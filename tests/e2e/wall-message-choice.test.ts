// What a signal puts on the public Recognition Wall is what the visitor chose: 'Show my name' (on by default)
// shows the name as a supporter with the tier; the message goes to the founders only unless 'Also show my message on the wall'
// is ticked too, and never without the name. Checked as another visitor sees it: the live wall in a second
// browser, a fresh page load (the page cache), and the wall's event stream. Each of the pitch page's clients
// sends the choice: the enhancement module, the React page (`?dialog=`) and the form without JavaScript.
import type { BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DESKTOP, PHONE } from "../support/chromium.js";
import { insertProject, marker, newVisitor, readWallStream } from "../support/pitch-e2e";
import { setUpAppInBrowser } from "../support/e2e-app";
import { waitForEnhancement, waitForHydration } from "../support/clients";

const e2e = setUpAppInBrowser();
let project: { id: string; slug: string };
/** A second visitor, watching the wall live the whole time. */
let watcher: { context: BrowserContext; page: Page };

beforeAll(async () => {
  project = await insertProject(e2e.app.dataDir, { title: "Wall Choice Labs", tiers: [{ label: "Angel", min: 5_000, max: 25_000 }] });
  watcher = await newVisitor(e2e.browser, { viewport: DESKTOP });
  await watcher.page.goto(pitchUrl());
  await waitForEnhancement(watcher.page);
  await watcher.page.getByRole("region", { name: "Recognition Wall" }).getByText("Live", { exact: true }).waitFor();
});

afterAll(async () => {
  await watcher?.context.close();
});

const pitchUrl = (query = "") => `${e2e.app.url}/pitch/${project.slug}${query}`;
const field = (dialog: Locator, label: string) => dialog.getByLabel(label, { exact: true });
const SHOW_NAME = "Show my name on the Recognition Wall";
const SHOW_MESSAGE = "Also show my message on the wall";

type Choice = { showName: boolean; showMessage: boolean };

/** Fills the signal form; the checkboxes are set message first, so unticking the name afterwards is what a visitor does. */
async function fillSignal(dialog: Locator, person: { name: string; email: string; message: string }, choice: Choice): Promise<void> {
  await dialog.locator("label", { hasText: "Angel" }).first().click();
  await field(dialog, "Name").fill(person.name);
  await field(dialog, "Email").fill(person.email);
  await field(dialog, "Message").fill(person.message);
  expect(await dialog.getByLabel(SHOW_NAME).isChecked()).toBe(true);
  expect(await dialog.getByLabel(SHOW_MESSAGE).isChecked()).toBe(false);
  if (choice.showMessage) await dialog.getByLabel(SHOW_MESSAGE).check();
  if (!choice.showName) await dialog.getByLabel(SHOW_NAME).uncheck();
}

function newPerson(tag: string) {
  const id = marker("");
  return { name: `${tag} Backer ${id}`, email: `${tag.toLowerCase()}-${id}@example.com`, message: `A word for the founders ${id}` };
}

/** The wall entry of a name in a page, or null when it is not on the wall. */
async function wallEntryText(page: Page, name: string): Promise<string | null> {
  const entry = page.getByRole("region", { name: "Recognition Wall" }).locator("li[data-entry-id]", { hasText: name });
  return (await entry.count()) ? await entry.first().innerText() : null;
}

/** What another visitor sees: the live wall (no reload), a fresh page (the cache) and the event stream. */
async function expectWallToShow(person: { name: string; message: string }, choice: Choice): Promise<void> {
  const messageShown = choice.showName && choice.showMessage;
  if (choice.showName) {
    await expect.poll(() => wallEntryText(watcher.page, person.name)).not.toBeNull();
    const live = (await wallEntryText(watcher.page, person.name))!;
    expect(live).toContain("Angel");
    expect(live.includes(person.message)).toBe(messageShown);
  }
  const other = await newVisitor(e2e.browser, { viewport: PHONE });
  try {
    await other.page.goto(pitchUrl());
    await waitForEnhancement(other.page);
    const entry = await wallEntryText(other.page, person.name);
    if (choice.showName) {
      expect(entry).toContain(person.name);
      expect(entry).toContain("Angel");
    } else expect(entry).toBeNull();
    const html = await other.page.content();
    expect(html.includes(person.name)).toBe(choice.showName);
    expect(html.includes(person.message)).toBe(messageShown);
  } finally {
    await other.context.close();
  }
  const stream = await readWallStream(e2e.app.url, project.id, 0);
  expect(stream.includes(person.name)).toBe(choice.showName);
  expect(stream.includes(person.message)).toBe(messageShown);
  if (!choice.showName) expect(await wallEntryText(watcher.page, person.name)).toBeNull();

  // The founder keeps the message whatever was chosen, and the choice is stored.
  const signal = await e2e.db
    .selectFrom("signals as s")
    .innerJoin("contacts as c", "c.id", "s.contact_id")
    .select(["s.message", "s.is_public", "s.message_public"])
    .where("c.name", "=", person.name)
    .executeTakeFirst();
  expect(signal).toEqual({ message: person.message, is_public: choice.showName, message_public: messageShown });
}

/** The enhancement module's signal dialog, opened from the page's own link. */
async function openEnhancedSignalDialog(page: Page): Promise<Locator> {
  await page.goto(pitchUrl());
  await waitForEnhancement(page);
  await page.getByRole("main").getByRole("link", { name: "Signal Interest" }).first().click();
  return page.getByRole("dialog", { name: "Signal Interest" });
}

/** Sends a page's signal dialog (scripts running) and waits for its success message. */
async function sendSignal(page: Page, dialog: Locator): Promise<void> {
  await dialog.getByRole("button", { name: "Signal Interest" }).click();
  await page.getByText("Signal of interest recorded!").first().waitFor();
}

/** A visitor whose browser runs no script posts the signal form of `?dialog=signal` and lands on the thank-you page. */
async function signalWithoutJavaScript(person: { name: string; email: string; message: string }, choice: Choice): Promise<void> {
  const { context, page } = await newVisitor(e2e.browser, { viewport: PHONE, javaScriptEnabled: false });
  try {
    await page.goto(pitchUrl("?dialog=signal"));
    const dialog = page.locator('[role="dialog"]').filter({ has: page.getByRole("heading", { name: "Signal Interest", exact: true }) });
    await fillSignal(dialog, person, choice);
    await dialog.getByRole("button", { name: "Signal Interest" }).click();
    await page.waitForURL(`${e2e.app.url}/pledge-success`);
    await page.getByRole("heading", { name: "Thank You for Your Support!" }).waitFor();
  } finally {
    await context.close();
  }
}

describe("the Recognition Wall shows what the visitor chose", () => {
  it("name and message (the page's enhancement module)", async () => {
    const choice = { showName: true, showMessage: true };
    const person = newPerson("Open");
    const { context, page } = await newVisitor(e2e.browser, { viewport: PHONE });
    try {
      const dialog = await openEnhancedSignalDialog(page);
      await fillSignal(dialog, person, choice);
      await sendSignal(page, dialog);
    } finally {
      await context.close();
    }
    await expectWallToShow(person, choice);
  });

  it("the name without the message (the React page)", async () => {
    const choice = { showName: true, showMessage: false };
    const person = newPerson("Named");
    const { context, page } = await newVisitor(e2e.browser, { viewport: DESKTOP });
    try {
      await page.goto(pitchUrl("?dialog=signal"));
      await waitForHydration(page);
      const dialog = page.getByRole("dialog", { name: "Signal Interest" });
      await fillSignal(dialog, person, choice);
      await sendSignal(page, dialog);
    } finally {
      await context.close();
    }
    await expectWallToShow(person, choice);
  });

  it("nothing when the name is off, even with the message ticked first: the message choice waits for the name (enhancement module and React page)", async () => {
    const choice = { showName: false, showMessage: true };
    const person = newPerson("Hidden");
    const { context, page } = await newVisitor(e2e.browser, { viewport: PHONE });
    try {
      await page.goto(pitchUrl("?dialog=signal"));
      await waitForHydration(page);
      const reactDialog = page.getByRole("dialog", { name: "Signal Interest" });
      await reactDialog.getByLabel(SHOW_NAME).uncheck();
      expect(await reactDialog.getByLabel(SHOW_MESSAGE).isDisabled()).toBe(true);

      const dialog = await openEnhancedSignalDialog(page);
      await fillSignal(dialog, person, choice);
      expect(await dialog.getByLabel(SHOW_MESSAGE).isDisabled()).toBe(true);
      await dialog.getByLabel(SHOW_NAME).check();
      expect(await dialog.getByLabel(SHOW_MESSAGE).isEnabled()).toBe(true);
      await dialog.getByLabel(SHOW_NAME).uncheck();
      await sendSignal(page, dialog);
    } finally {
      await context.close();
    }
    await expectWallToShow(person, choice);
  });

  it("nothing, and no message, from the form without JavaScript that ticks only the message", async () => {
    const choice = { showName: false, showMessage: true };
    const person = newPerson("NoScript");
    // Without a script nothing disables the second box: the server ignores it without the name.
    await signalWithoutJavaScript(person, choice);
    await expectWallToShow(person, choice);
  });

  it("nothing, from the form without JavaScript with both boxes off", async () => {
    const choice = { showName: false, showMessage: false };
    const person = newPerson("Quiet");
    await signalWithoutJavaScript(person, choice);
    await expectWallToShow(person, choice);
  });
});
