// Helpers for the founder's end-to-end journey (tests/e2e/founder-journey.test.ts): toasts, downloads,
// reading QR code PNGs and CSV files, and the key/value pairs the founder screens show.
import fs from "node:fs/promises";
import jsQR from "jsqr";
import { PNG } from "pngjs";
import type { Download, Locator, Page } from "playwright-core";

/** Waits for a Sonner toast holding `text` (toasts live about 4 s: call this right after the action). */
export async function waitForToast(page: Page, text: string, timeout = 15_000): Promise<void> {
  await page.locator("[data-sonner-toast]").filter({ hasText: text }).first().waitFor({ timeout });
}

/** Runs `action` and collects the downloads it starts until `count` arrived (in the order they started). */
export async function collectDownloads(page: Page, count: number, action: () => Promise<void>, timeout = 20_000): Promise<Download[]> {
  const downloads: Download[] = [];
  const onDownload = (download: Download) => downloads.push(download);
  page.on("download", onDownload);
  try {
    await action();
    const deadline = Date.now() + timeout;
    while (downloads.length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} downloads, got ${downloads.length}: ${downloads.map((d) => d.suggestedFilename()).join(", ")}`);
      await page.waitForEvent("download", { timeout: Math.max(1, deadline - Date.now()) }).catch(() => undefined);
    }
    return downloads;
  } finally {
    page.off("download", onDownload);
  }
}

/** A finished download's bytes (fails the test when the browser reports a failed download). */
export async function downloadBytes(download: Download): Promise<Buffer> {
  const failure = await download.failure();
  if (failure) throw new Error(`download ${download.suggestedFilename()} failed: ${failure}`);
  const file = await download.path();
  return fs.readFile(file);
}

/** Decodes a QR code PNG the way a phone's reader would; returns the encoded text and the image size. */
export function decodeQrPng(png: Buffer): { text: string | null; width: number; height: number } {
  const image = PNG.sync.read(png);
  const code = jsQR(new Uint8ClampedArray(image.data), image.width, image.height);
  return { text: code?.data ?? null, width: image.width, height: image.height };
}

/** RFC 4180 parsing (quoted cells, doubled quotes, CRLF or LF records); a trailing newline adds no record. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"' && cell === "") quoted = true;
    else if (char === ",") {
      row.push(cell);
      cell = "";
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && text[i + 1] === "\n") i += 1;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
    } else cell += char;
  }
  if (cell !== "" || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/** The `dt` → `dd` pairs of a definition list (My Projects' counts, the analytics key metrics). */
export function definitionPairs(list: Locator): Promise<Record<string, string>> {
  return list.evaluate((dl) => {
    const pairs: Record<string, string> = {};
    for (const term of dl.querySelectorAll("dt")) {
      const value = term.parentElement?.querySelector("dd");
      pairs[(term.textContent ?? "").trim()] = (value?.textContent ?? "").trim();
    }
    return pairs;
  });
}

/** Text with runs of white space collapsed, as a reader sees it. */
export async function visibleText(locator: Locator): Promise<string> {
  return (await locator.innerText()).replace(/\s+/g, " ").trim();
}
