import type { ErrorDetails } from "../pages/ErrorPage";
import type { Params } from "../routing/match";

/** Browser runtime config, chosen by the server per request: never holds a secret. */
export interface RuntimeConfig {
  /** The browser DSN (public by design), or null when browser reporting is off. */
  sentryDsn: string | null;
  tunnelPath: string;
  environment: string;
  release: string;
  tracesSampleRate: number;
}

export type PageState =
  | { kind: "route"; routePath: string; params: Params; data: unknown }
  | { kind: "not-found" }
  | { kind: "error"; error?: ErrorDetails };

export interface DocumentHead {
  title: string;
  styles: string[];
  modulePreloads: string[];
  /** Sentry's sentry-trace and baggage values, so the browser continues the server's trace. */
  traceMeta: Record<string, string>;
}

/** Everything the browser needs to hydrate exactly what the server rendered. */
export interface DocumentPayload {
  /** Route pattern or fixed label (not_found): names the browser's pageload like the server's transaction. */
  route: string;
  page: PageState;
  head: DocumentHead;
  config: RuntimeConfig;
}

/** The global the server's inline bootstrap script assigns the payload to. */
export const PAYLOAD_GLOBAL = "__OUTPOST__";
