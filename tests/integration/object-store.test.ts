import { createS3Store } from "~/modules/storage/s3-store.server";
import { expect, it } from "vitest";
import { text } from "node:stream/consumers";
import { describeEachStore } from "../support/object-stores";

describeEachStore("object store", (getStore) => {
  it("reads back exactly the bytes and the type it was given, and nothing for a key never written", async () => {
    const store = getStore();
    const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => i % 251));
    await store.put("decks/d1/page-1-960.webp", bytes, "image/webp");
    const object = await store.get("decks/d1/page-1-960.webp");
    expect(object).not.toBeNull();
    expect(object!.size).toBe(bytes.length);
    expect(object!.contentType).toBe("image/webp");
    const chunks: Buffer[] = [];
    for await (const chunk of object!.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
    expect(await store.get("decks/d1/page-2-960.webp")).toBeNull();
  });

  it("lists a folder's keys and deletes them, a missing key being no error", async () => {
    const store = getStore();
    await store.put("decks/d2/deck.pdf", Buffer.from("%PDF-1.7"), "application/pdf");
    await store.put("decks/d2/page-1-480.webp", Buffer.from("a"), "image/webp");
    await store.put("decks/d20/page-1-480.webp", Buffer.from("b"), "image/webp");
    expect(await store.list("decks/d2/")).toEqual(["decks/d2/deck.pdf", "decks/d2/page-1-480.webp"]);
    await store.delete([...(await store.list("decks/d2/")), "decks/d2/never-written.webp"]);
    expect(await store.list("decks/d2/")).toEqual([]);
    expect(await store.get("decks/d2/deck.pdf")).toBeNull();
    expect(await text((await store.get("decks/d20/page-1-480.webp"))!.body)).toBe("b");
    expect(await store.list("decks/nothing-here/")).toEqual([]);
  });

  it("refuses keys that could leave its folder, and changes nothing", async () => {
    const store = getStore();
    for (const key of ["../outside", "decks/../../etc/passwd", "/absolute", "Decks/Upper", "decks//double", "decks/d3/"]) {
      await expect(store.put(key, Buffer.from("x"), "text/plain")).rejects.toThrow("Invalid storage key");
    }
    await expect(store.list("decks")).rejects.toThrow("Invalid storage prefix");
  });

  it("says it can be written", async () => {
    await expect(getStore().check()).resolves.toBeUndefined();
  });
});

it("an S3 store whose bucket does not exist fails its check", async () => {
  const { startS3Server } = await import("../support/object-stores");
  const server = await startS3Server();
  try {
    await expect(createS3Store({ ...server.settings, bucket: "no-such-bucket" }).check()).rejects.toThrow();
  } finally {
    await server.stop();
  }
});
