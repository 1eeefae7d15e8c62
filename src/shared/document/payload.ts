import type { RouteState } from "../routing/route-state";
import type { FeedbackPage } from "./feedback-page";

/** Browser runtime config, chosen by the server per deployment: never holds a secret. */
export interface RuntimeConfig {
  /** The browser DSN (public by design), or null when browser reporting is off. */
  sentryDsn: string | null;
  tunnelPath: string;
  environment: string;
  release: string;
  tracesSampleRate: number;
  /** Whether the diagnostics routes are served, so the browser matches what the server does. */
  diagnostics: boolean;
  /** The app's feedback page and whether feedback can be sent now; null when the app names none. */
  feedbackPage: FeedbackPage | null;
  /** Whether the app's public folder has a favicon.ico, which the document then links. */
  favicon: boolean;
}

/** Everything the browser needs to hydrate exactly what the server rendered. */
export interface DocumentPayload {
  state: RouteState;
  /** The build the document came from: data requests carry it so versions never mix. */
  buildId: string;
  /** Sentry's sentry-trace and baggage values, so the browser continues the server's trace. */
  traceMeta: Record<string, string>;
  config: RuntimeConfig;
  /**
   * A page with deferred values: its loader data, encoded (its first line; the values follow in
   * scripts pushing to DEFERRED_GLOBAL), while `state.data` is empty.
   */
  stream?: string;
}

/** The global the server's inline bootstrap script assigns the payload to. */
export const PAYLOAD_GLOBAL = "__OUTPOST__";
