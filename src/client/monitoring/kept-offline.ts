/**
 * Whether the SDK's offline transport holds envelopes a visit could not send (its IndexedDB
 * queue, `sentry-offline`/`queue`): the SDK sends them when it starts.
 */
export function envelopesKeptOffline(): Promise<boolean> {
  return new Promise((resolve) => {
    try {
      const request = indexedDB.open("sentry-offline");
      // The SDK's own schema, so that opening the database first changes nothing for it.
      request.onupgradeneeded = () => request.result.createObjectStore("queue");
      request.onerror = () => resolve(false);
      request.onsuccess = () => {
        const db = request.result;
        const count = db.transaction("queue", "readonly").objectStore("queue").count();
        count.onsuccess = () => resolve(count.result > 0);
        count.onerror = () => resolve(false);
        db.close();
      };
    } catch {
      // No IndexedDB here (some private modes): nothing can have been kept either.
      resolve(false);
    }
  });
}
