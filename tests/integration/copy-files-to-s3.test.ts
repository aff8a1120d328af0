import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buffer } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createDiskStore } from "~/modules/storage/disk-store.server";
import { createS3Store } from "~/modules/storage/s3-store.server";
import { copyFilesToS3Command } from "../../server/copy-files-to-s3";
import { startS3Server } from "../support/object-stores";

describe("moving the uploaded files from the data folder to S3", () => {
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  let dataDir: string;
  beforeAll(async () => {
    s3 = await startS3Server("pitchqr-move");
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pitchqr-move-"));
  });
  afterAll(async () => {
    await s3.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("copies every deck file with its content type, and a second run copies nothing again", async () => {
    const disk = createDiskStore(path.join(dataDir, "files"));
    await disk.put("decks/0b9c/page-1-1080.webp", Buffer.from("webp bytes"), "image/webp");
    await disk.put("decks/0b9c/page-1-1080.jpg", Buffer.from("jpeg bytes"), "image/jpeg");
    await disk.put("decks/0b9c/source.pdf", Buffer.from("%PDF-1.7 deck"), "application/pdf");
    const env = {
      DATA_DIR: dataDir,
      S3_BUCKET: s3.settings.bucket,
      S3_ENDPOINT: s3.settings.endpoint!,
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
    };
    const printed: string[] = [];
    const spy = vi.spyOn(console, "log").mockImplementation((line: string) => void printed.push(line));
    try {
      expect(await copyFilesToS3Command([], env)).toBe(0);
      expect(printed.at(-1)).toMatch(/^Copied 3 files \(0\.0 MB\); 0 files already there\./);
      expect(await copyFilesToS3Command([], env)).toBe(0);
      expect(printed.at(-1)).toMatch(/^Copied 0 files \(0\.0 MB\); 3 files already there\./);
    } finally {
      spy.mockRestore();
    }
    const bucket = createS3Store(s3.settings);
    expect(await bucket.list("decks/")).toEqual(["decks/0b9c/page-1-1080.jpg", "decks/0b9c/page-1-1080.webp", "decks/0b9c/source.pdf"]);
    const webp = await bucket.get("decks/0b9c/page-1-1080.webp");
    expect(webp?.contentType).toBe("image/webp");
    expect((await buffer(webp!.body)).toString()).toBe("webp bytes");
    expect((await bucket.get("decks/0b9c/source.pdf"))?.contentType).toBe("application/pdf");
  });

  it("says what is missing instead of copying anywhere", async () => {
    const errors: string[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((line: string) => void errors.push(line));
    try {
      expect(await copyFilesToS3Command(["--to", "x"], { DATA_DIR: dataDir })).toBe(2);
      expect(errors.at(-1)).toMatch(/^Unknown argument --to/);
      expect(await copyFilesToS3Command([], { DATA_DIR: dataDir })).toBe(2);
      expect(errors.at(-1)).toContain("S3_BUCKET");
    } finally {
      spy.mockRestore();
    }
  });
});
