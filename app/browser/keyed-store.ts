/**
 * One IndexedDB object store of records keyed by their `key` (an idempotency key), opened for each request and
 * closed when its transaction ends: the visitor's offline forms and the booth's people met in person keep their
 * unsent work in one each. Resolves with the request's result once the transaction has committed.
 */
export function keyedStore(database: string, store: string) {
  return function request<T>(run: (objects: IDBObjectStore) => IDBRequest<T>, mode: IDBTransactionMode): Promise<T> {
    return new Promise((resolve, reject) => {
      const opening = indexedDB.open(database, 1);
      opening.onupgradeneeded = () => opening.result.createObjectStore(store, { keyPath: "key" });
      opening.onerror = () => reject(opening.error);
      opening.onsuccess = () => {
        const connection = opening.result;
        const transaction = connection.transaction(store, mode);
        const result = run(transaction.objectStore(store));
        transaction.oncomplete = () => {
          connection.close();
          resolve(result.result);
        };
        transaction.onerror = transaction.onabort = () => {
          connection.close();
          reject(transaction.error);
        };
      };
    });
  };
}
