// Bundled by lib/floor-tree.mjs (packages external) for floor-ssr.mjs: the app's own React
// tree and the payload the server would render for GET / with Sentry off.
import appRoutes from "outpost:server-routes";
import { App } from "../../src/shared/document/App.tsx";
import { PAYLOAD_GLOBAL } from "../../src/shared/document/payload.ts";
import { serializeForScript } from "../../src/shared/document/serialize.ts";
import { createNonce } from "../../src/server/render/nonce.ts";
import { routeAssets } from "../../src/server/render/route-assets.ts";

// The server's own nonce source, so the floor differs from it only by the framework.
export { App, createNonce };

export async function homeDocument(manifest) {
  const { pattern, matches } = appRoutes.table.match("/", { diagnostics: false });
  const data = {};
  for (const { id, params } of matches) {
    const load = appRoutes.serverHalf(id)?.load;
    if (load) data[id] = await load({ params, url: new URL("http://localhost/") });
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
  };
  const payload = { state, buildId: manifest.buildId, modulePreloads: assets.modulePreloads, traceMeta: {}, config };
  return {
    props: { state, modules: appRoutes.modules, modulePreloads: assets.modulePreloads, traceMeta: {} },
    bootstrapScriptContent: `window.${PAYLOAD_GLOBAL}=${serializeForScript(payload)}`,
  };
}
