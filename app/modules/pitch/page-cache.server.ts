import crypto from "node:crypto";
import zlib from "node:zlib";
import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { DIALOGS_ELEMENT } from "~/components/pitch/dialog-templates";
import { hasSessionCookie } from "~/modules/auth/session.server";
import { hasFlashCookie } from "~/modules/flash/flash.server";
import { readPitchRevision, type PitchRevision } from "./pitch-page.server";

/** A response body in each coding a browser may ask for, compressed once. */
export type EncodedBody = { html: Buffer; gzip: Buffer; brotli: Buffer };

export type CachedPitchPage = EncodedBody & {
  version: number;
  etag: string;
  /**
   * The dialogs' markup, cut out of the document (decision 51) and served apart at `/pitch/{slug}/dialogs`;
   * null if the page has none.
   */
  dialogs: (EncodedBody & { etag: string }) | null;
  /**
   * Inline scripts are allowed by hash: a cached page cannot carry a per-response nonce. The shared document
   * has none (decision 13); this keeps the policy right should one appear.
   */
  scriptHashes: string[];
};

export type PitchPageRequest = { slug: string; cookie: string | undefined; queryKeys: string[] };

/** Renders the anonymous page (no cookies) through the app's own request handler. */
export type RenderPitchPage = (slug: string) => Promise<Response>;

const CACHEABLE_QUERY_KEYS = new Set(["qr"]);
const MAX_PAGES = 1_000;

/**
 * The anonymous pitch page is the same for every visitor, so it is rendered once per change and served
 * again from memory. Every request first reads the project's content version (one indexed lookup): any write
 * that changes the page bumps it in the same transaction, so the next request on any instance sees it.
 * Signed-in visitors, one-shot messages, drafts and unknown slugs go through the normal render.
 */
export class PitchPageCache {
  readonly #pages = new Map<string, CachedPitchPage>();
  readonly #rendering = new Map<string, Promise<CachedPitchPage | null>>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly render: RenderPitchPage,
  ) {}

  static isCacheable(request: PitchPageRequest): boolean {
    if (hasSessionCookie(request.cookie) || hasFlashCookie(request.cookie)) return false;
    return request.queryKeys.every((key) => CACHEABLE_QUERY_KEYS.has(key));
  }

  /** The page to serve and the project it shows, or null when this request must be rendered normally. */
  async lookup(request: PitchPageRequest): Promise<{ page: CachedPitchPage; project: PitchRevision } | null> {
    if (!PitchPageCache.isCacheable(request)) return null;
    const project = await readPitchRevision(this.db, request.slug);
    if (!project?.published) return null;
    const cached = this.#pages.get(request.slug);
    const page = cached && cached.version === project.version ? cached : await this.#renderOnce(request.slug, project.version);
    return page ? { page, project } : null;
  }

  #renderOnce(slug: string, version: number): Promise<CachedPitchPage | null> {
    const key = `${slug}\u0000${version}`;
    let pending = this.#rendering.get(key);
    if (!pending) {
      pending = this.#renderAndStore(slug, version).finally(() => this.#rendering.delete(key));
      this.#rendering.set(key, pending);
    }
    return pending;
  }

  async #renderAndStore(slug: string, version: number): Promise<CachedPitchPage | null> {
    const response = await this.render(slug);
    if (response.status !== 200 || response.headers.has("set-cookie")) {
      await response.body?.cancel();
      return null;
    }
    const { document, dialogs } = splitDialogs(await response.text());
    const page: CachedPitchPage = {
      version,
      etag: `"p${version}-${contentHash(document)}"`,
      ...encodedBody(document),
      dialogs: dialogs === null ? null : { etag: `"d${version}-${contentHash(dialogs)}"`, ...encodedBody(dialogs) },
      scriptHashes: inlineScriptHashes(document),
    };
    if (this.#pages.size >= MAX_PAGES && !this.#pages.has(slug)) {
      const oldest = this.#pages.keys().next().value;
      if (oldest !== undefined) this.#pages.delete(oldest);
    }
    this.#pages.set(slug, page);
    return page;
  }
}

const contentHash = (text: string) => crypto.createHash("sha1").update(text).digest("base64url").slice(0, 16);

function encodedBody(text: string): EncodedBody {
  const html = Buffer.from(text);
  return {
    html,
    gzip: zlib.gzipSync(html, { level: 9 }),
    brotli: zlib.brotliCompressSync(html, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: html.length },
    }),
  };
}

/**
 * The document without its `<pitch-dialogs>` element, and that element's content (decision 51): the dialogs are
 * a third of the page's bytes and needed only once a visitor heads for one, so the page paints from its first round
 * trip without them.
 */
export function splitDialogs(html: string): { document: string; dialogs: string | null } {
  const start = html.indexOf(`<${DIALOGS_ELEMENT}`);
  const close = `</${DIALOGS_ELEMENT}>`;
  const end = html.indexOf(close, start);
  if (start < 0 || end < 0) return { document: html, dialogs: null };
  return { document: html.slice(0, start) + html.slice(end + close.length), dialogs: html.slice(html.indexOf(">", start) + 1, end) };
}

/** CSP source expressions ('sha256-…') for every inline script of a document. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attributes = match[1] ?? "";
    if (/\bsrc\s*=/i.test(attributes)) continue;
    hashes.add(`'sha256-${crypto.createHash("sha256").update(match[2] ?? "", "utf8").digest("base64")}'`);
  }
  return [...hashes];
}
