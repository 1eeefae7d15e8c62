// SSR floor: bare node:http streaming the app's React tree with the server's render call
// (renderToPipeableStream, pipe one event-loop turn after onShellReady, as the server does:
// see src/server/render/stream-document.ts), without Koa or any middleware.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createElement } from "react";
import { renderToPipeableStream } from "react-dom/server";

const outDir = process.env.BENCH_OUT;
const manifest = JSON.parse(readFileSync(path.join(outDir, "manifest.json"), "utf8"));
const { App, createNonce, routes, homeDocument } = await import(pathToFileURL(path.join(outDir, "floor/tree.mjs")).href);

const server = createServer(async (_req, res) => {
  const { payload, bootstrapScriptContent } = await homeDocument(manifest);
  const { pipe } = renderToPipeableStream(createElement(App, { payload, routes }), {
    nonce: createNonce(),
    bootstrapScriptContent,
    bootstrapModules: [manifest.entry.script],
    onShellReady() {
      setImmediate(() => {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" });
        pipe(res);
      });
    },
    onShellError() {
      res.writeHead(500).end();
    },
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, "127.0.0.1", () => console.log(JSON.stringify({ port: server.address().port })));
// Exit normally on SIGTERM, so that a --cpu-prof run writes its profile.
process.once("SIGTERM", () => process.exit(0));
