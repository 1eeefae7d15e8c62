import appRoutes from "outpost:client-routes";
import { hydrateRoot } from "react-dom/client";
import { type DocumentPayload, PAYLOAD_GLOBAL } from "../shared/document/payload";
import { announcingErrors } from "./dev/error-hooks";
import { rootErrorHooks } from "./monitoring/error-queue";
import { loadErrorReporting } from "./monitoring/load-reporting";
import { BrowserRouter } from "./navigation/browser-router";
import { browserEnvironment } from "./navigation/core/environment";
import { RouterRoot } from "./navigation/RouterRoot";
import { setRouter } from "./navigation/revalidate";
import { importWithRetry } from "./recovery/import-with-retry";

declare global {
  interface Window {
    [PAYLOAD_GLOBAL]: DocumentPayload;
  }
}

/**
 * Starts the app in the browser: the error queue (with a DSN), the router, the matched routes'
 * chunks, then hydration. The production build makes every lazily loaded chunk import this
 * module (scripts/build/app-chunk.mjs), so that it and all it imports are one chunk, not a
 * dozen small ones; the entry (./entry.tsx) only calls it. A chunk imported while this runs
 * waits for this module, so no top-level await here. A chunk it needs that fails to fetch is
 * tried again, then rejects with a ChunkLoadError (the entry then loads the document again).
 */
export async function start(): Promise<void> {
  const payload = window[PAYLOAD_GLOBAL];
  const { sentryDsn } = payload.config;
  const env = browserEnvironment();

  // Errors are queued from here on; the SDK loads at the first one or once the page is idle.
  if (sentryDsn) loadErrorReporting(payload, sentryDsn);

  // Deferred values: the loader data comes encoded, its values streaming after the document's shell.
  const { stream } = payload;
  const streamed =
    stream === undefined ? undefined : importWithRetry(() => import("./navigation/core/stream-route-data")).then((decoder) => decoder.readPageData(stream, env));
  // Only a server that serves the diagnostics makes the browser fetch their routes.
  const clientRoutes = payload.config.diagnostics ? (await importWithRetry(() => import("outpost:client-routes-with-diagnostics"))).default : appRoutes;
  // The server preloaded these chunks (modulepreload), so this waits for no second round trip.
  const loaded = clientRoutes.load(payload.state.matches.map((match) => match.id));
  if (streamed) payload.state.data = await streamed;
  const router = new BrowserRouter(clientRoutes, {
    buildId: payload.buildId,
    diagnostics: payload.config.diagnostics,
    state: payload.state,
    env,
  });
  setRouter(router);
  await loaded;
  const errorHooks = sentryDsn ? rootErrorHooks : {};
  hydrateRoot(
    document,
    <RouterRoot router={router} routes={clientRoutes} payload={payload} />,
    process.env.NODE_ENV === "development" ? announcingErrors(errorHooks) : errorHooks,
  );

  if (process.env.NODE_ENV === "development") {
    void import("./dev/hot-client").then((module) => module.startHotUpdates(clientRoutes));
  }
}
