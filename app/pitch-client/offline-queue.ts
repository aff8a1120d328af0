import type { VisitorIntent } from "~/modules/contacts/visitor-form-rules";
import { keyedStore } from "~/browser/keyed-store";

/** One form submission, as posted and, when the network is gone, as kept on the phone until it can be. */
export type Submission = {
  /** The idempotency key: the server writes a submission once, however often it arrives. */
  key: string;
  intent: VisitorIntent;
  url: string;
  body: string;
  projectTitle: string;
  visitorName: string;
  createdAt: string;
};

const DATABASE = "pitchqr-offline";
const STORE = "submissions";

/** Kept only where a service worker can also bring the page back offline; elsewhere forms work as before. */
export function canKeepOffline(): boolean {
  return typeof indexedDB !== "undefined" && "serviceWorker" in navigator;
}

const request = keyedStore(DATABASE, STORE);

export const keepSubmission = (submission: Submission) => request((store) => store.put(submission), "readwrite").then(() => undefined);
export const keptSubmissions = () => request((store) => store.getAll() as IDBRequest<Submission[]>, "readonly");
export const forgetSubmission = (key: string) => request((store) => store.delete(key), "readwrite");

/** A random idempotency key (works without a secure context, unlike `crypto.randomUUID`). */
export function newSubmissionKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
