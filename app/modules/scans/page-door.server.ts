import crypto from "node:crypto";
import { isbot } from "isbot";
import { classifyAudience, IOS_DEVICE } from "~/modules/analytics/audience";
import type { VisitorIdentity } from "~/modules/analytics/sources.server";
import type { ExclusionReason, ScanInput, ScanRecorder } from "./scans.server";

/**
 * Scans counted at the door (decision 15): the server records a pitch page load when it serves it, from the
 * page cache or from a render, before any script runs. This module decides what a page load is; the
 * HTTP layers (server/pitch-door.ts) read the request and apply the decision.
 */

/** Sent by the pitch service worker when it fetches a page to keep it (where browsers send no Sec-Fetch-Dest). */
export const OFFLINE_COPY_HEADER = "x-pitchqr-offline-copy";

/** The first-party cookie holding a browser's random viewer id, signed: `{id}.{signature}` (decision 42). */
export const VIEWER_COOKIE = "pitchqr_viewer";
/** An id as issued before cookies were signed: read only to give that browser its one new id. */
const LEGACY_VIEWER_ID = /^[0-9a-f]{32}$/;
const SIGNED_VIEWER_ID = /^([0-9a-f]{32})\.([A-Za-z0-9_-]{22})$/;
const VIEWER_COOKIE_VALUE = new RegExp(`(?:^|;\\s*)${VIEWER_COOKIE}=([^;]*)`);
const TWO_YEARS_S = 2 * 365 * 24 * 3600;

/**
 * The first-party cookie that marks a device as a team's: the ids of the users who signed in on it or opened a
 * booth link with it (the project's owner's id for a booth link), newest first, signed: `{id}~{id}.{signature}`.
 * Kept through sign-out, so the founder's own phone testing a printed code signed out is still the team's.
 */
export const TEAM_DEVICE_COOKIE = "pitchqr_team";
const TEAM_DEVICE_COOKIE_VALUE = new RegExp(`(?:^|;\\s*)${TEAM_DEVICE_COOKIE}=([^;]*)`);
const TEAM_MEMBER_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** Enough for a team and its staff phones' booth links; the oldest falls off first. */
const TEAM_DEVICE_MAX_MEMBERS = 8;

/**
 * Client tokens of apps fetching a page themselves, not a browser showing it (decision 52): Android's HTTP client
 * (`Dalvik/2.1.0 …`) and iOS's (`QRReader/2.3 CFNetwork/1410 Darwin/22.6`). No browser's user agent carries them.
 */
const APP_CLIENT = /^Dalvik\/|\bCFNetwork\/|^[^(]*\bDarwin\/\d/;

/**
 * Link-preview fetchers (chat apps and social networks unfurling a shared link), told apart from crawlers. WhatsApp's
 * fetcher names itself first (`WhatsApp/2.23.20.0 A`); a browser inside WhatsApp ends its user agent with the token,
 * and is a person (decision 67).
 */
const LINK_PREVIEW = /Slackbot|Slack-ImgProxy|facebookexternalhit|Facebot|Twitterbot|^WhatsApp\/|LinkedInBot|TelegramBot|Discordbot|SkypeUriPreview|redditbot|Embedly|iframely|Cardyb/i;

export type PageLoadRequest = {
  method: string;
  userAgent: string | undefined;
  /** `Accept-Language`: every browser sends it with every page it opens (decision 52); an app's own fetch often does not. */
  acceptLanguage: string | undefined;
  /** `Sec-CH-UA`, the brands Chromium-based browsers name on every request (Safari and Firefox send none). */
  clientHints: string | undefined;
  /** `Sec-Purpose`, `Purpose` or `X-Purpose`: browsers mark speculative loads with `prefetch` (or `prerender`). */
  purpose: string | undefined;
  cookieHeader: string | undefined;
  /**
   * The browser has loaded this page before: it revalidates a copy it kept (`If-None-Match`) or reloads
   * (`Cache-Control: max-age=0` or `no-cache`, also of a history entry that dropped `?qr=`, which it never kept a copy of).
   */
  revalidating: boolean;
  /** The client's network (`networkKeyOf`: its IPv4 address or IPv6 /64), as every per-address limit keys it. */
  clientAddress: string;
  qrCodeId: string | null;
  /** A dialog opened or a form answered without JavaScript (`?dialog=`, `?sent=`, the flash cookie): not an arrival. */
  withinPage: boolean;
  /**
   * Not a page being opened: a script's or a service worker's fetch of the page (neither a navigation nor a
   * document or frame by `Sec-Fetch-Mode`/`Sec-Fetch-Dest`), such as the pitch service worker keeping a copy.
   */
  backgroundFetch: boolean;
  /** The pitch service worker keeping a copy of the page the visitor just opened (`X-PitchQR-Offline-Copy`). */
  offlineCopy: boolean;
};

/** A published pitch and its team: the owner and the members (`pitchTeam` reads them). */
export type PitchProject = { id: string; teamIds: readonly string[] };

export type PageLoadDecision =
  | { kind: "ignored" }
  | { kind: "excluded"; reason: ExclusionReason }
  /** A page fetched ahead of a tap: not counted now; the browser gets its viewer id, so the page's beacon when shown is that viewer. */
  | { kind: "speculative"; newViewerId: string | null }
  | { kind: "counted"; scan: ScanInput; newViewerId: string | null };

export class PageDoor {
  readonly #secret: string;
  readonly #secureCookie: boolean;
  /** Signs viewer ids; derived from AUTH_SECRET for this purpose only. */
  readonly #viewerKey: Buffer;
  /** Signs team-device cookies; derived from AUTH_SECRET for this purpose only. */
  readonly #teamKey: Buffer;
  #salt: { day: string; key: Buffer } | null = null;

  constructor(options: { secret: string; secureCookie: boolean }) {
    this.#secret = options.secret;
    this.#secureCookie = options.secureCookie;
    this.#viewerKey = crypto.createHmac("sha256", options.secret).update("pitchqr-viewer-cookie").digest();
    this.#teamKey = crypto.createHmac("sha256", options.secret).update("pitchqr-team-device-cookie").digest();
  }

  /**
   * What a page load of a published pitch is: ignored (HEAD, a navigation within the page, the service worker's
   * copy), excluded (the team, a bot, a link preview, an app's own fetch), speculative (a prefetch or prerender,
   * counted by the page's beacon if it is shown) or counted, with the viewer it counts for (decisions 15, 52).
   */
  decide(request: PageLoadRequest, project: PitchProject, sessionUserId: string | null, now = new Date()): PageLoadDecision {
    // The page the visitor just opened, kept by the service worker, is no visit of its own, even from a bot.
    if (request.method !== "GET" || request.withinPage || request.offlineCopy) return { kind: "ignored" };
    // The team, signed in, is the team whatever its browser says of itself; so is any device a member marked.
    if (this.isTeams(project, sessionUserId, request.cookieHeader)) return { kind: "excluded", reason: "owner" };
    const userAgent = request.userAgent ?? "";
    if (!userAgent) return { kind: "excluded", reason: "bot" };
    if (LINK_PREVIEW.test(userAgent)) return { kind: "excluded", reason: "preview" };
    // Every browser on an iPhone, iPad or iPod runs WebKit, which sends no Chromium client hints: a request that says
    // iOS and sends `Sec-CH-UA` is Chromium (a headless script) wearing an iPhone's user agent.
    if (isbot(userAgent) || (IOS_DEVICE.test(userAgent) && !!request.clientHints)) return { kind: "excluded", reason: "bot" };

    const cookie = this.#readViewerCookie(request.cookieHeader);
    const viewerId = cookie?.kind === "signed" ? cookie.id : null;
    // An id from before cookies were signed gets one new id, the same for every load until the browser keeps it,
    // so its visitor counts once more at most (decision 42); anything else unsigned is no cookie.
    const newViewerId = viewerId ? null : cookie?.kind === "legacy" ? this.#upgradedViewerId(cookie.id) : crypto.randomBytes(16).toString("hex");
    if (request.purpose && /prefetch|prerender/i.test(request.purpose)) return { kind: "speculative", newViewerId };
    if (request.backgroundFetch) return { kind: "ignored" };
    if (APP_CLIENT.test(userAgent) || !request.acceptLanguage) return { kind: "excluded", reason: "app" };

    const addressHash = this.addressHash(project.id, request.clientAddress, userAgent, now);
    // A browser that loaded the page before but sent no cookie at all blocks storage: counted by address hash.
    const storageBlocked = !cookie && request.revalidating;
    const viewerFingerprint = storageBlocked ? null : viewerFingerprintOf((viewerId ?? newViewerId)!);
    return {
      kind: "counted",
      scan: {
        projectId: project.id,
        qrCodeId: request.qrCodeId,
        viewerFingerprint,
        addressHash,
        cookieKept: !!viewerId,
        issuedFingerprint: storageBlocked && newViewerId ? viewerFingerprintOf(newViewerId) : null,
        audience: classifyAudience(userAgent),
      },
      newViewerId,
    };
  }

  /** Whether the browser is signed in as one of the project's team, or a device one of them marked. */
  isTeams(project: PitchProject, sessionUserId: string | null, cookieHeader: string | undefined | null): boolean {
    if (sessionUserId && project.teamIds.includes(sessionUserId)) return true;
    return this.teamMembersOf(cookieHeader).some((id) => project.teamIds.includes(id));
  }

  /** The team members whose device this is, by its signed team-device cookie (none when absent or altered). */
  teamMembersOf(cookieHeader: string | undefined | null): string[] {
    const value = cookieHeader ? TEAM_DEVICE_COOKIE_VALUE.exec(cookieHeader)?.[1] : undefined;
    const dot = value?.lastIndexOf(".") ?? -1;
    if (!value || dot < 0) return [];
    const members = value.slice(0, dot);
    const expected = Buffer.from(this.#teamSignature(members));
    const signature = Buffer.from(value.slice(dot + 1));
    if (expected.length !== signature.length || !crypto.timingSafeEqual(expected, signature)) return [];
    return members.split("~").filter((id) => TEAM_MEMBER_ID.test(id));
  }

  /**
   * The `Set-Cookie` value that marks this device as `memberId`'s team's (at sign-in; by a booth link, the project
   * owner's), keeping the members already marked on it.
   */
  teamDeviceCookie(memberId: string, cookieHeader: string | undefined | null): string {
    const members = [memberId, ...this.teamMembersOf(cookieHeader).filter((id) => id !== memberId)]
      .filter((id) => TEAM_MEMBER_ID.test(id))
      .slice(0, TEAM_DEVICE_MAX_MEMBERS)
      .join("~");
    return `${TEAM_DEVICE_COOKIE}=${members}.${this.#teamSignature(members)}; Path=/; Max-Age=${TWO_YEARS_S}; HttpOnly; SameSite=Lax${this.#secureCookie ? "; Secure" : ""}`;
  }

  #teamSignature(members: string): string {
    return crypto.createHmac("sha256", this.#teamKey).update(members).digest().subarray(0, 16).toString("base64url");
  }

  /** Whether a request for the page is a fetch in the background rather than a page being opened (see `backgroundFetch`). */
  static isBackgroundFetch(headers: Record<string, string | string[] | undefined>): boolean {
    const mode = headers["sec-fetch-mode"];
    const destination = headers["sec-fetch-dest"];
    if (mode === undefined && destination === undefined) return false;
    // A navigation passed on by a service worker says mode `navigate` with destination `empty`.
    return mode !== "navigate" && !(typeof destination === "string" && ["document", "iframe", "frame"].includes(destination));
  }

  /** Who a visitor's form post comes from, as the door counted them: by their viewer cookie, or by address hash. */
  identify(projectId: string, request: { cookieHeader: string | null | undefined; clientAddress: string; userAgent: string | null | undefined }, now = new Date()): VisitorIdentity {
    const viewerId = this.viewerIdFromCookie(request.cookieHeader);
    return {
      viewerFingerprint: viewerId ? viewerFingerprintOf(viewerId) : null,
      addressHash: this.addressHash(projectId, request.clientAddress, request.userAgent ?? "", now),
    };
  }

  /** The `Set-Cookie` value that gives a browser its viewer id, signed. */
  viewerCookie(viewerId: string): string {
    return `${VIEWER_COOKIE}=${viewerId}.${this.#signature(viewerId)}; Path=/; Max-Age=${TWO_YEARS_S}; HttpOnly; SameSite=Lax${this.#secureCookie ? "; Secure" : ""}`;
  }

  /**
   * The viewer id a browser sent, only when this app signed it: a made-up, altered or unsigned id is no cookie, so
   * nobody can be a viewer (or a browser with its own form allowance) by naming an id.
   */
  viewerIdFromCookie(cookieHeader: string | undefined | null): string | null {
    const cookie = this.#readViewerCookie(cookieHeader);
    return cookie?.kind === "signed" ? cookie.id : null;
  }

  #readViewerCookie(cookieHeader: string | undefined | null): { kind: "signed" | "legacy"; id: string } | null {
    const value = cookieHeader ? VIEWER_COOKIE_VALUE.exec(cookieHeader)?.[1] : undefined;
    if (!value) return null;
    if (LEGACY_VIEWER_ID.test(value)) return { kind: "legacy", id: value };
    const signed = SIGNED_VIEWER_ID.exec(value);
    if (!signed) return null;
    const [, id, signature] = signed as unknown as [string, string, string];
    const expected = Buffer.from(this.#signature(id));
    return crypto.timingSafeEqual(expected, Buffer.from(signature)) ? { kind: "signed", id } : null;
  }

  /** 128 bits of HMAC-SHA256 over the id, base64url (22 characters). */
  #signature(viewerId: string): string {
    return crypto.createHmac("sha256", this.#viewerKey).update(viewerId).digest().subarray(0, 16).toString("base64url");
  }

  #upgradedViewerId(legacyId: string): string {
    return crypto.createHmac("sha256", this.#viewerKey).update(`legacy:${legacyId}`).digest().subarray(0, 16).toString("hex");
  }

  /**
   * The daily-salted hash of address and user agent, per project (as Plausible counts visitors): the salt
   * changes every UTC day, so the hash cannot follow anyone across days, and without AUTH_SECRET it cannot
   * be reversed into an address.
   */
  addressHash(projectId: string, address: string, userAgent: string, now: Date): string {
    const day = now.toISOString().slice(0, 10);
    if (this.#salt?.day !== day) {
      this.#salt = { day, key: crypto.createHmac("sha256", this.#secret).update(`viewer-address-salt:${day}`).digest() };
    }
    return crypto.createHmac("sha256", this.#salt.key).update(`${projectId}\n${address}\n${userAgent}`).digest("hex").slice(0, 32);
  }
}

/** What is stored for a viewer id: a hash, so the database never holds the cookie itself. */
export function viewerFingerprintOf(viewerId: string): string {
  return crypto.createHash("sha256").update(`viewer:${viewerId}`).digest("hex").slice(0, 32);
}

/**
 * Page loads counted in the last minute, per viewer and project, so the spec's `track-scan` function, called
 * by a client script after the same page load, does not count it twice. Kept per process: a script's call
 * reaches the instance that served its page unless a balancer splits them, and a miss only double counts.
 */
export class RecentPageLoads {
  readonly #seen = new Map<string, number>();

  constructor(
    private readonly windowMs = 60_000,
    private readonly maxEntries = 100_000,
  ) {}

  remember(viewerFingerprint: string, projectId: string, now = Date.now()): void {
    const key = `${viewerFingerprint}:${projectId}`;
    this.#seen.delete(key);
    this.#seen.set(key, now);
    // Oldest first (Map keeps insertion order): drop what is out of the window, and keep the map bounded.
    for (const [oldest, at] of this.#seen) {
      if (this.#seen.size <= this.maxEntries && now - at < this.windowMs) break;
      this.#seen.delete(oldest);
    }
  }

  /** True once per remembered load: the first `track-scan` for it is the same page load, a second is not. */
  claim(viewerFingerprint: string, projectId: string, now = Date.now()): boolean {
    const key = `${viewerFingerprint}:${projectId}`;
    const at = this.#seen.get(key);
    if (at === undefined || now - at >= this.windowMs) return false;
    this.#seen.delete(key);
    return true;
  }
}

/**
 * A scan reported by a script through the spec's `track-scan` function. A browser with the viewer cookie is
 * that viewer, and when its page load was just counted at the door, this call is the same load: it is not
 * counted again. The call comes from the browser that showed the page, so its user agent tells how the scan
 * arrived (decision 67). Resolves with what happened.
 */
export async function recordScriptedScan(
  deps: { scans: ScanRecorder; recentPageLoads: RecentPageLoads; pageDoor: PageDoor },
  scan: ScanInput,
  request: { cookieHeader: string | undefined; userAgent: string | undefined },
): Promise<"counted" | "already-counted" | "unknown-project"> {
  const viewerId = deps.pageDoor.viewerIdFromCookie(request.cookieHeader);
  const audience = classifyAudience(request.userAgent);
  const counted = viewerId ? { ...scan, viewerFingerprint: viewerFingerprintOf(viewerId), cookieKept: true, audience } : { ...scan, audience };
  if (counted.viewerFingerprint && viewerId && deps.recentPageLoads.claim(counted.viewerFingerprint, counted.projectId)) return "already-counted";
  return (await deps.scans.record(counted)) ? "counted" : "unknown-project";
}
