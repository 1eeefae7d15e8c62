import { importWithRetry } from "../recovery/import-with-retry";
import { recordEarlyBreadcrumbs } from "./early-breadcrumbs";
import { observeErrors } from "./error-queue";
import { envelopesKeptOffline } from "./kept-offline";
import { startPageSession } from "./page-session";
import type { ReportingPayload } from "./sentry-client";

/** The SDK's chunk is fetched again after each of these while it fails; then at the next error or when the browser is back online. */
const SDK_RETRY_DELAYS_MS = [500, 2_000, 5_000];

/**
 * Error reporting where tracing is off: this small chunk, fetched once the page is idle (or at
 * its first error), keeps the page's release-health session and fetches the Sentry SDK
 * (sentry-client.ts) only when there is something to send: at the page's first error, or at
 * once when envelopes an earlier visit kept offline are waiting. Until the SDK runs, errors
 * wait in error-queue.ts, with their stacks and the route they were raised on, and the
 * visitor's clicks and navigations are kept for the SDK's breadcrumbs (early-breadcrumbs.ts).
 */
export function startErrorReporting(payload: ReportingPayload): void {
  let loading = false;
  const loadSdk = () => {
    if (loading) return;
    loading = true;
    importWithRetry(() => import("./sentry-client"), SDK_RETRY_DELAYS_MS).then(
      (sdk) => sdk.startSentryClient(payload),
      () => {
        loading = false;
        window.addEventListener("online", loadSdk, { once: true });
      },
    );
  };
  recordEarlyBreadcrumbs();
  observeErrors(loadSdk);
  startPageSession(payload);
  void envelopesKeptOffline().then((kept) => kept && loadSdk());
}
