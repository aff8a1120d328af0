// Accessibility checks with axe-core (from node_modules, never the network) for the end-to-end sweeps in
// tests/e2e/accessibility-*.test.ts. The app's CSP allows only its own nonce'd scripts, so the sweeps' browser
// contexts are opened with Playwright's `bypassCSP: true`: the test injects axe without the production policy
// being weakened.
import fs from "node:fs";
import { createRequire } from "node:module";
import type { AxeResults, NodeResult, Result } from "axe-core";
import type { Page } from "playwright-core";

const require = createRequire(import.meta.url);
const AXE_SOURCE = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

/** WCAG 2.0 and 2.1 A and AA, and axe's best practices. No rule is disabled. */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] as const;

export type AxeViolation = { id: string; impact: string | null; help: string; helpUrl: string; nodes: { target: string; summary: string }[] };

/**
 * Waits until the page is still: finite CSS animations and transitions (dialogs fading in, toasts sliding in)
 * have finished, so colour contrast is measured on what a reader sees, not on a half-transparent frame.
 */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const finite = () =>
      document.getAnimations().filter((animation) => {
        const timing = animation.effect?.getComputedTiming();
        return animation.playState === "running" && timing && Number.isFinite(timing.endTime as number);
      });
    for (let round = 0; round < 5; round += 1) {
      const running = finite();
      if (!running.length) break;
      await Promise.all(running.map((animation) => animation.finished.catch(() => undefined)));
    }
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  });
}

/** Runs axe on the whole document and returns its violations (an empty list when the page is clean). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await settle(page);
  const hasAxe = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === "object");
  if (!hasAxe) await page.addScriptTag({ content: AXE_SOURCE });
  const results = (await page.evaluate(
    (tags) =>
      (window as unknown as { axe: { run: (context: Document, options: object) => Promise<unknown> } }).axe.run(document, {
        runOnly: { type: "tag", values: tags },
        resultTypes: ["violations"],
      }),
    [...AXE_TAGS],
  )) as AxeResults;
  return results.violations.map((violation: Result) => ({
    id: violation.id,
    impact: violation.impact ?? null,
    help: violation.help,
    helpUrl: violation.helpUrl,
    nodes: violation.nodes.map((node: NodeResult) => ({ target: node.target.map(String).join(" "), summary: nodeSummary(node) })),
  }));
}

/** The first line of axe's own explanation for one node (for colour contrast: the colours and the ratio). */
function nodeSummary(node: NodeResult): string {
  const text = (node.failureSummary ?? "").split("\n").map((line) => line.trim()).filter((line) => line && !/^Fix (any|all) of the following:$/.test(line));
  return text.slice(0, 2).join(" / ");
}

/** A failure message a developer can act on: each rule, its impact, and each offending node with its selector. */
export function formatViolations(where: string, violations: AxeViolation[]): string {
  const lines = [`${where}: ${violations.reduce((sum, v) => sum + v.nodes.length, 0)} axe violation node(s)`];
  for (const violation of violations) {
    lines.push(`  [${violation.impact ?? "?"}] ${violation.id}: ${violation.help} (${violation.helpUrl})`);
    for (const node of violation.nodes) lines.push(`    - ${node.target}\n      ${node.summary}`);
  }
  return lines.join("\n");
}

/** Resolves once the page's scripts are live: React hydrated, or the anonymous pitch page enhanced (decision 13). */
export async function waitForPageReady(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      if (document.documentElement.dataset.enhanced === "true") return true;
      const main = document.querySelector("main");
      return !!main && Object.keys(main).some((key) => key.startsWith("__reactFiber") || key.startsWith("__reactProps"));
    },
    undefined,
    { timeout: 20_000 },
  );
}

/** One state of one page to check: where to go, and what to open or do there first. */
export type PageState<P = void> = {
  name: string;
  path: (params: P) => string;
  /** Opens a menu or dialog, submits a form…, after the page is ready; resolves once that state is shown. */
  act?: (page: Page, params: P) => Promise<void>;
};

/** Opens the account menu in the site header (signed in) and waits for its items. */
export async function openAccountMenu(page: Page): Promise<void> {
  const trigger = page.getByRole("button", { name: "Account menu" });
  // The menu is its own chunk behind a Suspense boundary, which hydrates after the page: a click before that is lost.
  await trigger.evaluate(
    (button) =>
      new Promise<void>((resolve) => {
        const hydrated = () => Object.keys(button).some((key) => key.startsWith("__reactProps"));
        const check = () => (hydrated() ? resolve() : setTimeout(check, 50));
        check();
      }),
  );
  await trigger.click();
  await page.getByRole("menu").getByRole("menuitem", { name: "My Projects" }).waitFor();
}
