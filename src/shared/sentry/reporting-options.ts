import type { Options } from "@sentry/core";
import { scrubBreadcrumb, scrubEvent } from "./private-urls";
import { dropRedirectSignals, IGNORED_SPANS } from "./reporting-rules";

/** The options both SDKs share: which events and spans are dropped, and what private data is scrubbed. */
export const SHARED_REPORTING_OPTIONS = {
  // Static lifecycle: the transaction is judged when it ends, by its final route name, which is
  // what lets the not-found rule drop it (span streaming judges at span start).
  traceLifecycle: "static",
  ignoreSpans: IGNORED_SPANS,
  // No query string or fragment from any URL or header, in events, transactions and breadcrumbs.
  beforeSend: (event, hint) => {
    const kept = dropRedirectSignals(event, hint);
    return kept && scrubEvent(kept);
  },
  beforeSendTransaction: scrubEvent,
  beforeBreadcrumb: scrubBreadcrumb,
} satisfies Partial<Options>;
