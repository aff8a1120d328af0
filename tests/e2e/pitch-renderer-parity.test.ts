// One behaviour, two renderers (decision 47): the pitch page's three visitor forms, refused in the
// browser, refused by the server and accepted, as an anonymous visitor sees them (the no-framework module) and
// as a signed-in founder sees them (React). What the visitor sees must be the same: the dialog, the messages and
// where they sit, what a screen reader is told about each field, the counter, the toasts.
import type { BrowserContext, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { PHONE } from "../support/chromium.js";
import { setUpAppInBrowser } from "../support/e2e-app";
import { insertProject, marker, openPitchDialog, readThePage } from "../support/pitch-e2e";
import { signedInUser, uniqueEmail } from "../support/sign-up";
import { newClientContext, waitForEnhancement, waitForHydration } from "../support/clients";

const e2e = setUpAppInBrowser();
let slug = "";
let ownerCookie = "";

beforeAll(async () => {
  const email = uniqueEmail("parity-owner");
  const owner = await signedInUser(e2e.app, email);
  ownerCookie = owner.cookie;
  slug = (await insertProject(e2e.app.dataDir, {
    title: "Parity Cold Chain",
    ownerId: owner.id,
    tiers: [
      { label: "Angel", min: 5_000, max: 25_000, perks: ["Quarterly update"] },
      { label: "Lead", min: 250_000, max: null },
    ],
  })).slug;
});

type Renderer = "module" | "react";
type FormName = "Request Intro" | "Follow Updates" | "Signal Interest";

/** A phone on the pitch page, as the renderer's visitor: anonymous (the module) or the signed-in founder (React). */
async function openAs(renderer: Renderer): Promise<{ context: BrowserContext; page: Page }> {
  const { context } = await newClientContext(e2e.browser, { viewport: PHONE, hasTouch: true, isMobile: true });
  if (renderer === "react") {
    await context.addCookies(
      ownerCookie.split("; ").map((pair) => {
        const [name, ...value] = pair.split("=");
        return { name: name!, value: value.join("="), url: e2e.app.url };
      }),
    );
  }
  const page = await context.newPage();
  await page.goto(`${e2e.app.url}/pitch/${slug}`);
  if (renderer === "module") await waitForEnhancement(page);
  else await waitForHydration(page);
  // Each renderer is what it claims to be: the module's page has no React, React's page no module.
  expect(await page.evaluate(() => document.documentElement.dataset.enhanced ?? "react")).toBe(renderer === "module" ? "true" : "react");
  return { context, page };
}

/** What the visitor sees of the open dialog (or that none is open) and of the toasts: text and what assistive technology reads. */
function seen(page: Page) {
  return page.evaluate(() => {
    const text = (element: Element | null | undefined) => element?.textContent?.replace(/\s+/g, " ").trim() ?? "";
    const described = (element: Element) =>
      (element.getAttribute("aria-describedby") ?? "")
        .split(" ")
        .filter(Boolean)
        .map((id) => text(document.getElementById(id)));
    const toasts = [...document.querySelectorAll('section[aria-label="Notifications"] p')].map(text).filter(Boolean);
    const dialog = document.querySelector("dialog[open]");
    if (!dialog) return { dialog: null, toasts };
    const controls = [...dialog.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>("input:not([type=hidden]), textarea")].filter(
      (control) => control.name !== "website",
    );
    const active = document.activeElement;
    return {
      dialog: {
        modal: dialog.matches(":modal"),
        title: text(document.getElementById(dialog.getAttribute("aria-labelledby") ?? "")),
        description: text(document.getElementById(dialog.getAttribute("aria-describedby") ?? "")),
        alerts: [...dialog.querySelectorAll('[role="alert"]')].map(text),
        status: [...dialog.querySelectorAll('[role="status"]')].map(text),
        // Each message and the field it sits under (the first control of its field's box).
        errorLines: [...dialog.querySelectorAll('[id$="-error"]')].map((line) => ({
          text: text(line),
          under: line.parentElement?.querySelector("input:not([type=hidden]), textarea")?.getAttribute("name") ?? null,
        })),
        invalid: controls
          .filter((control) => control.getAttribute("aria-invalid") === "true")
          .map((control) => ({ name: control.name, value: control.type === "radio" || control.type === "checkbox" ? control.value : "", describedBy: described(control) })),
        groups: [...dialog.querySelectorAll("fieldset")].map((group) => ({ legend: text(group.querySelector("legend")), describedBy: described(group) })),
        counters: [...dialog.querySelectorAll('[id$="-counter"]')].map(text),
        buttons: [...dialog.querySelectorAll("button, a")].map((control) => control.getAttribute("aria-label") ?? text(control)),
        focus: active && dialog.contains(active) ? (active.getAttribute("name") ?? active.tagName.toLowerCase()) : "outside the dialog",
      },
      toasts,
    };
  });
}

const FILL: Record<FormName, (page: Page, id: string) => Promise<void>> = {
  "Request Intro": async (page, id) => {
    const dialog = page.getByRole("dialog", { name: "Request Intro" });
    await dialog.getByLabel("Name", { exact: true }).fill(`Ada ${id}`);
    await dialog.getByLabel("Email", { exact: true }).fill(`ada.${id}@example.com`);
    await dialog.getByLabel("Note", { exact: true }).fill(`I can introduce you to two clinics (${id}).`);
  },
  "Follow Updates": async (page, id) => {
    const dialog = page.getByRole("dialog", { name: "Follow Updates" });
    await dialog.getByLabel("Name", { exact: true }).fill(`Ben ${id}`);
    await dialog.getByLabel("Email", { exact: true }).fill(`ben.${id}@example.com`);
    await dialog.getByLabel("I agree to receive project updates by e-mail").check();
  },
  "Signal Interest": async (page, id) => {
    const dialog = page.getByRole("dialog", { name: "Signal Interest" });
    await dialog.getByText("Angel", { exact: true }).click();
    await dialog.getByLabel("Name", { exact: true }).fill(`Cy ${id}`);
    await dialog.getByLabel("Email", { exact: true }).fill(`cy.${id}@example.com`);
  },
};

const SUBMIT_LABELS: Record<FormName, string> = { "Request Intro": "Request Intro", "Follow Updates": "Follow Updates", "Signal Interest": "Signal Interest" };

/** The visitor's names and addresses differ per run: the same words with them taken out. */
const withoutMarker = <T,>(value: T, id: string): T => JSON.parse(JSON.stringify(value).replaceAll(id, "<id>")) as T;

type Journey = { opened: unknown; refusedHere: unknown; refusedByServer: unknown; accepted: unknown };

/**
 * One form, three submissions: empty (refused in the browser), with an address the server refuses (the browser's
 * request is changed on its way, as a script could send it: the server's own check answers), then accepted.
 */
async function journey(renderer: Renderer, form: FormName): Promise<Journey> {
  const { context, page } = await openAs(renderer);
  try {
    const id = marker("parity");
    await readThePage(page, e2e.app.dataDir);
    const dialog = await openPitchDialog(page, form);
    const submit = dialog.getByRole("button", { name: SUBMIT_LABELS[form], exact: true });
    if (form === "Signal Interest") await dialog.getByLabel("Message", { exact: true }).fill("Met at the demo day");
    const opened = await seen(page);

    await submit.click();
    await dialog.getByRole("alert").first().waitFor();
    const refusedHere = await seen(page);

    await FILL[form](page, id);
    await page.route(
      (url) => url.pathname.startsWith(`/pitch/${slug}`),
      async (route) => {
        const request = route.request();
        if (request.method() !== "POST") return route.fallback();
        const body = new URLSearchParams(request.postData() ?? "");
        body.set("email", "not-an-address");
        await route.continue({ postData: body.toString() });
      },
    );
    await submit.click();
    await page.waitForFunction(() => document.querySelectorAll('section[aria-label="Notifications"] p').length > 0);
    await dialog.getByText("Please enter a valid email address").first().waitFor();
    const refusedByServer = await seen(page);
    await page.unrouteAll({ behavior: "wait" });

    await page.evaluate(() => {
      for (const toast of document.querySelectorAll('section[aria-label="Notifications"] > *')) toast.remove();
    });
    await submit.click();
    if (form === "Request Intro") await dialog.getByLabel("Your forwardable intro blurb").waitFor();
    else {
      await dialog.waitFor({ state: "hidden" });
      await page.waitForFunction(() => document.querySelectorAll('section[aria-label="Notifications"] p').length > 0);
    }
    const accepted = await seen(page);
    return withoutMarker({ opened, refusedHere, refusedByServer, accepted }, id);
  } finally {
    await context.close();
  }
}

describe.each<FormName>(["Request Intro", "Follow Updates", "Signal Interest"])("the %s form", (form) => {
  it("looks and reads the same in the module and in React: refused here, refused by the server, accepted", async () => {
    const moduleJourney = await journey("module", form);
    const reactJourney = await journey("react", form);
    expect(reactJourney).toEqual(moduleJourney);

    // And what both show is what the spec says.
    const refusedHere = moduleJourney.refusedHere as { dialog: { alerts: string[]; focus: string; modal: boolean } };
    expect(refusedHere.dialog.modal).toBe(true);
    expect(refusedHere.dialog.alerts[0]).toBeTruthy();
    expect(refusedHere.dialog.focus).toBe(form === "Signal Interest" ? "tierId" : "name");
    const refusedByServer = moduleJourney.refusedByServer as { dialog: { invalid: { name: string; describedBy: string[] }[]; focus: string }; toasts: string[] };
    expect(refusedByServer.dialog.focus).toBe("email");
    expect(refusedByServer.dialog.invalid).toEqual([{ name: "email", value: "", describedBy: ["Please enter a valid email address"] }]);
    expect(refusedByServer.toasts).toEqual(["Please enter a valid email address"]);
    const accepted = moduleJourney.accepted as { dialog: { status: string[] } | null; toasts: string[] };
    if (form === "Request Intro") expect(accepted.dialog?.status[0]).toContain("Intro request sent!");
    else expect(accepted.toasts[0]).toContain(form === "Follow Updates" ? "You're on the list" : "Signal of interest recorded!");
  }, 180_000);
});

describe.each<Renderer>(["module", "react"])("the intro confirmation, %s renderer, on a phone", (renderer) => {
  it("keeps a second tap of 'Request Intro' from closing the confirmation: Done answers only after its first second", async () => {
    const { context, page } = await openAs(renderer);
    try {
      await readThePage(page, e2e.app.dataDir);
      const dialog = await openPitchDialog(page, "Request Intro");
      const id = marker(`double-${renderer}`);
      await dialog.getByLabel("Name", { exact: true }).fill(`Dot ${id}`);
      await dialog.getByLabel("Email", { exact: true }).fill(`dot.${id}@example.com`);
      await dialog.getByLabel("Note", { exact: true }).fill("Two taps, one intro");
      await dialog.getByRole("button", { name: "Request Intro" }).tap();
      const done = dialog.getByRole("link", { name: "Done" });
      await done.waitFor();
      // The second tap of a double tap lands as the confirmation appears: it must not close it unread. (Forced: a
      // finger does not wait for Done to be enabled, as Playwright would.)
      await done.tap({ force: true });
      expect(await dialog.locator("textarea[readonly]").isVisible()).toBe(true);
      expect(await done.getAttribute("aria-disabled")).toBe("true");
      // A second later Done works.
      await dialog.locator('a:not([aria-disabled="true"])', { hasText: "Done" }).waitFor();
      await done.tap();
      await dialog.waitFor({ state: "hidden" });
    } finally {
      await context.close();
    }
  });
});
