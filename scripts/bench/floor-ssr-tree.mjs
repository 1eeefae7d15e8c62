// Bundled by lib/floor-tree.mjs (packages external) for floor-ssr.mjs: the app's own React
// tree and the payload the server would render for GET / with Sentry off.
import { App } from "../../src/shared/document/App.tsx";
import { PAYLOAD_GLOBAL } from "../../src/shared/document/payload.ts";
import { serializeForScript } from "../../src/shared/document/serialize.ts";
import { routes } from "../../src/shared/routes.ts";
import { routeTitle } from "../../src/shared/routing/route.ts";
import { createNonce } from "../../src/server/render/nonce.ts";

// The server's own nonce source, so the floor differs from it only by the framework.
export { App, createNonce, routes };

export async function homeDocument(manifest) {
  const route = routes.find((r) => r.path === "/");
  const data = await route.load({ params: {}, url: new URL("http://localhost/") });
  const payload = {
    route: route.path,
    page: { kind: "route", routePath: route.path, params: {}, data },
    head: {
      title: routeTitle(route, data),
      styles: manifest.entry.styles,
      modulePreloads: manifest.entry.modulePreloads,
      traceMeta: {},
    },
    config: {
      sentryDsn: null,
      tunnelPath: "/monitoring",
      environment: "production",
      release: manifest.buildId,
      tracesSampleRate: 0,
    },
  };
  return { payload, bootstrapScriptContent: `window.${PAYLOAD_GLOBAL}=${serializeForScript(payload)}` };
}
