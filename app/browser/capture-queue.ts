import type { CaptureFields } from "~/modules/leads/capture/capture-form";
import { keyedStore } from "~/browser/keyed-store";

/**
 * The people added on this device and not yet confirmed by the server (decision 62): each kept in IndexedDB under its
 * capture's UUID (its idempotency key) from the moment 'Save' is tapped, sent when there is a connection, and
 * forgotten once the server answered it. Sent again after a lost answer, the server recognises the key and creates
 * nothing new. A capture the server refused stays, with its reason, until the founder removes it. Its fields are
 * what the sheet sent: an empty e-mail for a person met without one, and their phone (decision 92).
 */
export type QueuedCapture = {
  key: string;
  projectId: string;
  /** Who saved it on this device: only their session sends it, so it is credited to them and nobody else. */
  memberId: string;
  fields: CaptureFields;
  savedAt: string;
  /** Why the server refused it (nothing was saved); null while it waits to be sent. */
  refused: string | null;
};

const DATABASE = "pitchqr-captures";
const STORE = "captures";

const request = keyedStore(DATABASE, STORE);

const keep = (capture: QueuedCapture) => request((store) => store.put(capture), "readwrite").then(() => undefined);
export const forgetCapture = (key: string) => request((store) => store.delete(key), "readwrite").then(() => undefined);

export async function queuedCaptures(projectId: string, memberId: string): Promise<QueuedCapture[]> {
  const all = await request((store) => store.getAll() as IDBRequest<QueuedCapture[]>, "readonly");
  return all.filter((capture) => capture.projectId === projectId && capture.memberId === memberId).sort((a, b) => a.savedAt.localeCompare(b.savedAt));
}

/** A version 4 UUID from the browser's random numbers (`crypto.randomUUID` needs a secure context). */
export function newCaptureKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function queueCapture(projectId: string, memberId: string, fields: CaptureFields): Promise<void> {
  return keep({ key: fields.key, projectId, memberId, fields, savedAt: new Date().toISOString(), refused: null });
}

/**
 * What a sync did: who was saved, whether the server answered that this browser is signed out (401), and the
 * server's words when it refused for now (429: a limit, saying when it takes people again; they keep waiting here).
 */
export type SyncOutcome = { saved: { name: string; message: string }[]; signedOut: boolean; limited: string | null };

let running: Promise<SyncOutcome> | null = null;

/**
 * Sends this project's waiting captures, oldest first, one at a time; stops at the first that cannot reach the
 * server (offline, or the server down) and leaves it and the rest for the next try. One sync at a time per page.
 */
export function syncCaptures(projectId: string, memberId: string): Promise<SyncOutcome> {
  if (running) return running.then(() => syncCaptures(projectId, memberId));
  running = sendWaiting(projectId, memberId).finally(() => {
    running = null;
  });
  return running;
}

async function sendWaiting(projectId: string, memberId: string): Promise<SyncOutcome> {
  const saved: SyncOutcome["saved"] = [];
  let signedOut = false;
  let limited: string | null = null;
  for (const capture of await queuedCaptures(projectId, memberId)) {
    if (capture.refused) continue;
    let response: Response;
    try {
      response = await fetch(`/project/${encodeURIComponent(projectId)}/leads/capture`, {
        method: "POST",
        body: new URLSearchParams(capture.fields),
        credentials: "same-origin",
      });
    } catch {
      break;
    }
    const answer = (await response.json().catch(() => null)) as { ok?: boolean; message?: string; formError?: string } | null;
    if (response.ok && answer?.ok) {
      await forgetCapture(capture.key);
      saved.push({ name: capture.fields.name, message: answer.message ?? `${capture.fields.name} added` });
    } else if (response.status >= 400 && response.status < 500 && response.status !== 401 && response.status !== 429 && answer?.formError) {
      await keep({ ...capture, refused: answer.formError });
    } else {
      signedOut = response.status === 401;
      if (response.status === 429) limited = answer?.formError ?? null;
      break;
    }
  }
  return { saved, signedOut, limited };
}
