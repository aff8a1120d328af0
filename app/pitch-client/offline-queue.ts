import type { VisitorIntent } from "~/modules/contacts/visitor-form-rules";

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

function request<T>(run: (store: IDBObjectStore) => IDBRequest<T>, mode: IDBTransactionMode): Promise<T> {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open(DATABASE, 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore(STORE, { keyPath: "key" });
    opening.onerror = () => reject(opening.error);
    opening.onsuccess = () => {
      const database = opening.result;
      const transaction = database.transaction(STORE, mode);
      const result = run(transaction.objectStore(STORE));
      transaction.oncomplete = () => {
        database.close();
        resolve(result.result);
      };
      transaction.onerror = transaction.onabort = () => {
        database.close();
        reject(transaction.error);
      };
    };
  });
}

export const keepSubmission = (submission: Submission) => request((store) => store.put(submission), "readwrite").then(() => undefined);
export const keptSubmissions = () => request((store) => store.getAll() as IDBRequest<Submission[]>, "readonly");
export const forgetSubmission = (key: string) => request((store) => store.delete(key), "readwrite");

/** A random idempotency key (works without a secure context, unlike `crypto.randomUUID`). */
export function newSubmissionKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
