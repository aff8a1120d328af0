import type { Kysely } from "kysely";
import { isbot } from "isbot";
import type { Database, DeckAudience } from "~/db/schema";
import type { PageDoor } from "~/modules/scans/page-door.server";
import { viewerFingerprintOf } from "~/modules/scans/page-door.server";
import { isTeamDevice } from "~/modules/scans/team-devices.server";
import type { BeatSender } from "./record-beats.server";

export type BeatRequest = {
  cookieHeader: string | undefined;
  userAgent: string | undefined;
  clientAddress: string;
  sessionUserId: string | null;
};

/**
 * Who sent beats, as the door counts people (decision 99): the signed viewer cookie (none for a browser that keeps
 * none); the team (signed in, or on a device a member marked) and bots are shown apart, never counted as readers.
 */
export function beatSenderOf(deps: { db: Kysely<Database>; pageDoor: PageDoor }, request: BeatRequest, now = new Date()): BeatSender {
  const viewerId = deps.pageDoor.viewerIdFromCookie(request.cookieHeader);
  const bot = !request.userAgent || isbot(request.userAgent);
  const audiences = new Map<string, Promise<DeckAudience>>();
  return {
    viewerFingerprint: viewerId ? viewerFingerprintOf(viewerId) : null,
    addressHash: (projectId) => deps.pageDoor.addressHash(projectId, request.clientAddress, request.userAgent ?? "", now),
    audience: (projectId) => {
      if (!audiences.has(projectId)) {
        audiences.set(
          projectId,
          isTeamDevice(deps.db, deps.pageDoor, projectId, request.sessionUserId, request.cookieHeader).then((team) => (team ? "team" : bot ? "bot" : "reader")),
        );
      }
      return audiences.get(projectId)!;
    },
  };
}

/** The per-viewer ceiling's key: the viewer cookie, else the address (a browser that keeps no cookie). */
export function beatCeilingKey(pageDoor: PageDoor, request: BeatRequest): string {
  return pageDoor.viewerIdFromCookie(request.cookieHeader) ?? `address:${request.clientAddress}`;
}
