// Deck rendering on two instances of the built app sharing one PostgreSQL database and one S3 bucket (a real
// S3-compatible server): a deck uploaded through one instance is drawn exactly once, by whichever instance claims
// it, and every page image is served by the other with immutable caching and its content type; a draft project's
// deck image is the team's only, 404 to anyone else on either instance.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deckFolder } from "~/modules/deck/deck-keys";
import { createS3Store } from "~/modules/storage/s3-store.server";
import type { AppServer } from "../support/app-server";
import { nextClientAddress } from "../support/clients";
import { makeDeckPdf } from "../support/deck-pdfs";
import { startS3Server } from "../support/object-stores";
import { signedInUser, uniqueEmail, type SignedInUser } from "../support/sign-up";
import { withAppServers } from "../support/with-app-server";

const AUTH_SECRET = "concurrency-test-secret-0123456789-abcdefghij";
const PAGES = 4;
const WEBP_WIDTHS = [640, 1080, 1600];
const IMMUTABLE = "public, max-age=31536000, immutable";
/** Drawing waits for the demo project's own deck, queued at start-up before ours. */
const RENDER_TIMEOUT = 90_000;

describe("a deck on two instances sharing PostgreSQL and an S3 bucket", () => {
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  // Registered before the servers' hooks: the bucket is there when they start, and stopped after they stop
  // (vitest runs `afterAll` hooks in reverse).
  beforeAll(async () => {
    s3 = await startS3Server();
  });
  afterAll(async () => {
    await s3?.stop();
  });
  const instances = withAppServers(2, {
    postgres: "pitchqr_deck_instances",
    env: () => ({
      AUTH_SECRET,
      STORAGE: "s3",
      S3_BUCKET: s3.settings.bucket,
      S3_ENDPOINT: s3.settings.endpoint!,
      S3_REGION: s3.settings.region,
      S3_FORCE_PATH_STYLE: "true",
      S3_ACCESS_KEY_ID: s3.settings.credentials!.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.settings.credentials!.secretAccessKey,
    }),
  });
  const a = () => instances.servers[0]!;
  const b = () => instances.servers[1]!;
  let founder: SignedInUser;

  beforeAll(async () => {
    founder = await signedInUser({ url: a().url, db: instances.db }, uniqueEmail("deck-instances"));
  });

  /** A project made through instance A's own form, as the founder's browser without JavaScript posts it. */
  async function createProjectOn(app: AppServer, title: string, status: "published" | "draft"): Promise<string> {
    const response = await fetch(`${app.url}/project/create`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: app.url, cookie: founder.cookie, "x-forwarded-for": nextClientAddress() },
      body: new URLSearchParams({
        title,
        slug: `${title.toLowerCase().replace(/\W+/g, "-")}-${Date.now().toString(36)}`,
        oneLiner: "Solar cold rooms for rural clinics",
        status,
        metrics: "[]",
        problemPoints: "[]",
        solutionPoints: "[]",
        tiers: JSON.stringify([{ rangeLabel: "Angel", rangeMin: 1000, rangeMax: null, perks: [] }]),
      }).toString(),
    });
    expect(response.status).toBe(302);
    const projectId = new URL(response.headers.get("location") ?? "", app.url).pathname.split("/")[2] ?? "";
    expect(projectId).not.toBe("");
    return projectId;
  }

  /** The Deck section's upload form posted to `app` (multipart, as a browser sends it); answers the new deck's id. */
  async function uploadDeckOn(app: AppServer, projectId: string, pdf: Uint8Array, fileName: string): Promise<string> {
    const form = new FormData();
    form.set("intent", "upload");
    form.set("deck", new Blob([Buffer.from(pdf)], { type: "application/pdf" }), fileName);
    const response = await fetch(`${app.url}/project/${projectId}/deck`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: app.url, cookie: founder.cookie, "x-forwarded-for": nextClientAddress() },
      body: form,
    });
    await response.arrayBuffer();
    expect(response.status).toBeLessThan(400);
    const rows = await instances.db.selectFrom("decks").select("id").where("project_id", "=", projectId).execute();
    expect(rows).toHaveLength(1);
    return rows[0]!.id;
  }

  const deckOf = (deckId: string) =>
    instances.db.selectFrom("decks").select(["status", "attempts", "page_count", "pages_done", "claimed_by", "refusal_message"]).where("id", "=", deckId).executeTakeFirstOrThrow();

  async function waitUntilReady(deckId: string) {
    await expect.poll(async () => (await deckOf(deckId)).status, { timeout: RENDER_TIMEOUT }).toBe("ready");
  }

  function pageFiles(): { file: string; type: string }[] {
    const files: { file: string; type: string }[] = [];
    for (let page = 1; page <= PAGES; page += 1) {
      for (const width of WEBP_WIDTHS) files.push({ file: `page-${page}-${width}.webp`, type: "image/webp" });
      files.push({ file: `page-${page}-1080.jpg`, type: "image/jpeg" });
    }
    return files;
  }

  /** An anonymous request, as a visitor's browser (or a CDN in front of the app) makes it. */
  const anonymous = (app: AppServer, path: string) => fetch(`${app.url}${path}`, { headers: { "x-forwarded-for": nextClientAddress() } });

  it("renders a deck uploaded through instance A exactly once, and instance B serves every page image, immutable", { timeout: 150_000 }, async () => {
    const projectId = await createProjectOn(a(), "Harbor Cold Chain", "published");
    const deckId = await uploadDeckOn(a(), projectId, await makeDeckPdf(PAGES, { title: (n) => `Harbor slide ${n}` }), "Harbor deck.pdf");
    await waitUntilReady(deckId);

    expect(await deckOf(deckId)).toEqual({ status: "ready", attempts: 1, page_count: PAGES, pages_done: PAGES, claimed_by: null, refusal_message: null });
    const pages = await instances.db.selectFrom("deck_pages").select(["page_number", "text"]).where("deck_id", "=", deckId).orderBy("page_number").execute();
    expect(pages).toEqual(Array.from({ length: PAGES }, (_, index) => ({ page_number: index + 1, text: `Harbor slide ${index + 1}` })));
    expect((await instances.db.selectFrom("projects").select("deck_id").where("id", "=", projectId).executeTakeFirstOrThrow()).deck_id).toBe(deckId);

    // Every file is in the shared bucket (none only on the disk of the instance that drew it).
    const stored = await createS3Store(s3.settings).list(deckFolder(deckId));
    expect([...stored].sort()).toEqual(["source.pdf", ...pageFiles().map(({ file }) => file)].map((file) => `${deckFolder(deckId)}${file}`).sort());

    for (const { file, type } of pageFiles()) {
      const response = await anonymous(b(), `/deck/${deckId}/${file}`);
      const body = Buffer.from(await response.arrayBuffer());
      expect({ file, status: response.status, type: response.headers.get("content-type"), cache: response.headers.get("cache-control") }).toEqual({
        file,
        status: 200,
        type,
        cache: IMMUTABLE,
      });
      expect(response.headers.get("etag"), file).toMatch(/^".+"$/);
      expect(Number(response.headers.get("content-length")), file).toBe(body.length);
      // The bytes are what the type says: a RIFF/WEBP container, or a JPEG's start-of-image marker.
      if (type === "image/webp") expect(`${body.subarray(0, 4).toString("latin1")}${body.subarray(8, 12).toString("latin1")}`, file).toBe("RIFFWEBP");
      else expect(body.subarray(0, 3).toString("hex"), file).toBe("ffd8ff");

      const again = await fetch(`${b().url}/deck/${deckId}/${file}`, { headers: { "if-none-match": response.headers.get("etag")!, "x-forwarded-for": nextClientAddress() } });
      expect(again.status, file).toBe(304);
    }
    // Instance A answers the same, whichever of the two drew the deck.
    const fromA = await anonymous(a(), `/deck/${deckId}/page-${PAGES}-1600.webp`);
    await fromA.arrayBuffer();
    expect({ status: fromA.status, type: fromA.headers.get("content-type"), cache: fromA.headers.get("cache-control") }).toEqual({ status: 200, type: "image/webp", cache: IMMUTABLE });
    // The deck's PDF is not served: its founder has not let visitors download it.
    expect((await anonymous(b(), `/deck/${deckId}/source.pdf`)).status).toBe(404);
    // The pitch page on instance B shows the deck drawn on whichever instance drew it.
    const slug = (await instances.db.selectFrom("projects").select("slug").where("id", "=", projectId).executeTakeFirstOrThrow()).slug;
    const html = await (await anonymous(b(), `/pitch/${slug}`)).text();
    for (let page = 1; page <= PAGES; page += 1) expect(html).toContain(`/deck/${deckId}/page-${page}-1080.webp`);
  });

  it("answers a draft project's deck image 404 to an anonymous request on either instance, and to its team only", { timeout: 150_000 }, async () => {
    const projectId = await createProjectOn(a(), "Quiet Draft", "draft");
    const deckId = await uploadDeckOn(a(), projectId, await makeDeckPdf(1, { title: () => "Not yet public" }), "Draft deck.pdf");
    await waitUntilReady(deckId);
    expect(await deckOf(deckId)).toMatchObject({ status: "ready", attempts: 1, page_count: 1 });

    for (const app of [a(), b()]) {
      for (const file of ["page-1-1080.webp", "page-1-640.webp", "page-1-1080.jpg"]) {
        const response = await anonymous(app, `/deck/${deckId}/${file}`);
        await response.arrayBuffer();
        expect({ on: app.url, file, status: response.status }).toEqual({ on: app.url, file, status: 404 });
      }
      // Its founder, signed in, gets it from either instance, and no cache may keep it.
      const owned = await fetch(`${app.url}/deck/${deckId}/page-1-1080.webp`, { headers: { cookie: founder.cookie, "x-forwarded-for": nextClientAddress() } });
      await owned.arrayBuffer();
      expect({ status: owned.status, type: owned.headers.get("content-type"), cache: owned.headers.get("cache-control") }).toEqual({
        status: 200,
        type: "image/webp",
        cache: "private, no-store",
      });
    }
  });
});
