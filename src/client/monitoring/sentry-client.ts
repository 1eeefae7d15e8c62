import { addBreadcrumb, applySdkMetadata, type Integration, isPlainObject, setNormalizeStringifier } from "@sentry/core";
import {
  BrowserClient,
  breadcrumbsIntegration,
  captureException,
  dedupeIntegration,
  defaultStackParser,
  eventFiltersIntegration,
  functionToStringIntegration,
  getCurrentScope,
  globalHandlersIntegration,
  httpContextIntegration,
  lastEventId,
  linkedErrorsIntegration,
  makeBrowserOfflineTransport,
  makeFetchTransport,
  normalizeStringifyValue,
  reactErrorHandler,
  setContext,
  withScope,
} from "@sentry/react";
import { version } from "react";
import type { DocumentPayload } from "../../shared/document/payload";
import { SHARED_REPORTING_OPTIONS } from "../../shared/sentry/reporting-options";
import { tunnelUrl } from "./tunnel-url";
import { onNavigation } from "../navigation/core/navigation-events";
import { takeEarlyBreadcrumbs } from "./early-breadcrumbs";
import { currentPattern, drainErrorsTo, type QueuedError } from "./error-queue";
import { markEventSent, recordCapturedEventId } from "./sent-event-ids";

export type ReportingPayload = DocumentPayload & { config: { sentryDsn: string } };

const offlineTransport = makeBrowserOfflineTransport(makeFetchTransport);
// Sent when the page next starts, as well as when the browser comes back online.
const OFFLINE_OPTIONS: Partial<Parameters<typeof offlineTransport>[0]> = { flushAtStartup: true };

/**
 * The Sentry SDK, from the runtime config the server injected: a chunk of its own, fetched at
 * the page's first error (error-reporting.ts), or once the page is idle where tracing is on
 * (tracing.ts, which passes its integration in). Envelopes go to the same-origin tunnel, so
 * the browser never contacts a Sentry host.
 *
 * A BrowserClient rather than Sentry.init(), which bundles every default integration even
 * with `defaultIntegrations: false` (Sentry's documented tree-shaking setup).
 */
export function startSentryClient({ config }: ReportingPayload, tracing: Integration[] = []): void {
  const options: ConstructorParameters<typeof BrowserClient>[0] = {
    dsn: config.sentryDsn,
    tunnel: tunnelUrl(config.sentryDsn, config.tunnelPath),
    environment: config.environment,
    release: config.release,
    ...(config.tracesSampleRate > 0 ? { tracesSampleRate: config.tracesSampleRate } : {}),
    ...SHARED_REPORTING_OPTIONS,
    dataCollection: { userInfo: false },
    // Envelopes that could not be sent (the visitor offline, this server unreachable) wait in
    // IndexedDB and go when the page next starts or the browser comes back online. HTTP errors
    // are never queued: the tunnel answers 200 once it holds an envelope (its spool).
    transport: offlineTransport,
    transportOptions: OFFLINE_OPTIONS,
    stackParser: defaultStackParser,
    // Not browserApiErrorsIntegration: it wraps every timer and event listener so that errors
    // from cross-origin scripts are not just "Script error."; every script here is same-origin.
    integrations: [
      eventFiltersIntegration(),
      functionToStringIntegration(),
      breadcrumbsIntegration(),
      globalHandlersIntegration(),
      linkedErrorsIntegration(),
      dedupeIntegration(),
      httpContextIntegration(),
      ...tracing,
    ],
  };
  // What @sentry/react's init() adds: its SDK name, React's version, readable SyntheticEvents.
  applySdkMetadata(options, "react");
  setContext("react", { version });
  setNormalizeStringifier(normalizeValue);
  const client = new BrowserClient(options);
  const scope = getCurrentScope();
  scope.setClient(client);
  client.init();
  for (const breadcrumb of takeEarlyBreadcrumbs()) addBreadcrumb(breadcrumb);
  // An error page shows an event id only once its event is on its way: dedupe may drop it.
  client.on("beforeSendEvent", (event) => {
    if (event.event_id) markEventSent(event.event_id);
  });
  // Error events are grouped by route pattern, like the pageload, and follow client navigations.
  scope.setTransactionName(currentPattern());
  onNavigation({ end: ({ pattern }) => scope.setTransactionName(pattern) });
  drainErrorsTo(capture);
}

const normalizeValue = (value: unknown) =>
  isPlainObject(value) && "nativeEvent" in value && "preventDefault" in value && "stopPropagation" in value
    ? "[SyntheticEvent]"
    : normalizeStringifyValue(value);

const reactHandler = reactErrorHandler();
function capture({ source, error, info, pattern }: QueuedError): void {
  // Named by the route it was raised on: the SDK may have started pages later.
  withScope((scope) => {
    scope.setTransactionName(pattern);
    if (info) {
      reactHandler(error, info);
      // Captured synchronously just now: the id the error boundary's feedback form carries, once sent.
      recordCapturedEventId(error, lastEventId());
      return;
    }
    const type = source === "rejection" ? "auto.browser.global_handlers.onunhandledrejection" : "auto.browser.global_handlers.onerror";
    captureException(error, { mechanism: { type, handled: false } });
  });
}
