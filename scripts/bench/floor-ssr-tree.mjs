// Bundled by lib/floor-tree.mjs (packages external) for floor-ssr.mjs: the app's own React
// tree and the payload the server would render for a page (GET /, or the realistic group's
// page in its own app) with Sentry off.
import appRoutes from "outpost:server-routes";
import { App } from "../../src/shared/document/App.tsx";
import { PAYLOAD_GLOBAL } from "../../src/shared/document/payload.ts";
import { serializeForScript } from "../../src/shared/document/serialize.ts";
import { readAppSettings } from "../../src/server/config/env.server.ts";
import { createNonce } from "../../src/server/http/nonce.ts";
import { recoveryScript } from "../../src/server/render/recovery-script.ts";
import { routeAssets } from "../../src/server/render/route-assets.ts";

// Validated once, as the server does at start: loaders read the app's settings from their context.
const settings = readAppSettings(appRoutes.settings);

// The server's own nonce source, so the floor differs from it only by the framework.
export { App, createNonce };

export async function pageDocument(manifest, pathname) {
  const { pattern, matches } = appRoutes.table.match(pathname, { diagnostics: false });
  const data = {};
  for (const { id, params } of matches) {
    const load = appRoutes.serverHalf(id)?.load;
    if (load) data[id] = await load({ params, url: new URL(pathname, "http://localhost/"), services: { settings } });
  }
  const assets = routeAssets(manifest)(matches);
  const state = { pattern, matches, data, styles: assets.styles };
  const config = {
    sentryDsn: null,
    tunnelPath: "/monitoring",
    environment: "production",
    release: manifest.buildId,
    tracesSampleRate: 0,
    diagnostics: false,
    feedbackPage: appRoutes.table.feedbackPage ? { path: appRoutes.table.feedbackPage, available: false } : null,
    favicon: false,
  };
  const payload = { state, buildId: manifest.buildId, traceMeta: {}, config };
  return {
    props: { state, modules: appRoutes.modules, table: appRoutes.table, traceMeta: {} },
    // The document's recovery from a missing script comes first, as the server writes it.
    bootstrapScriptContent: `${recoveryScript("GET")}window.${PAYLOAD_GLOBAL}=${serializeForScript(payload)}`,
  };
}
