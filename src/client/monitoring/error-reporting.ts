import { importWithRetry } from "../recovery/import-with-retry";
import { recordEarlyBreadcrumbs } from "./early-breadcrumbs";
import { observeErrors, type QueuedError, queueEarlierError } from "./error-queue";
import { envelopesKeptOffline } from "./kept-offline";
import { startPageSession } from "./page-session";
import type { ReportingPayload } from "./sentry-client";
import { keepUnsentErrorsOnLeave, takeUnsentErrors } from "./unsent-errors";

/** The SDK's chunk is fetched again after each of these while it fails; then at the next error or when the browser is back online. */
const SDK_RETRY_DELAYS_MS = [500, 2_000, 5_000];

/**
 * Error reporting where tracing is off: this small chunk, fetched once the page is idle (or at
 * its first error), keeps the page's release-health session and fetches the Sentry SDK
 * (sentry-client.ts) only when there is something to send: at the page's first error, or at
 * once when envelopes or errors an earlier page kept are waiting. Until the SDK runs, errors
 * wait in error-queue.ts, with their stacks and the route they were raised on, and the
 * visitor's clicks and navigations are kept for the SDK's breadcrumbs (early-breadcrumbs.ts).
 */
export function startErrorReporting(payload: ReportingPayload): void {
  // The errors the SDK has not taken yet: kept for the next page if this one is left first.
  let unsent: QueuedError[] | null = [];
  let loading = false;
  const loadSdk = () => {
    if (loading) return;
    loading = true;
    importWithRetry(() => import("./sentry-client"), SDK_RETRY_DELAYS_MS).then(
      (sdk) => {
        unsent = null;
        sdk.startSentryClient(payload);
      },
      () => {
        loading = false;
        window.addEventListener("online", loadSdk, { once: true });
      },
    );
  };
  recordEarlyBreadcrumbs();
  observeErrors((queued) => {
    unsent?.push(queued);
    loadSdk();
  });
  keepUnsentErrorsOnLeave(() => unsent ?? []);
  startPageSession(payload);
  const earlier = takeUnsentErrors();
  for (const queued of earlier) {
    unsent?.push(queued);
    queueEarlierError(queued);
  }
  if (earlier.length > 0) loadSdk();
  void envelopesKeptOffline().then((kept) => kept && loadSdk());
}
