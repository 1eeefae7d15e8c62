// The floors' one render: the app's React tree for one page (BENCH_PAGE, default /, of the
// build in BENCH_OUT) with the server's render call
// (renderToPipeableStream, pipe one event-loop turn after onShellReady, as
// src/server/render/stream-document.ts does) and the server's nonce source.
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createElement } from "react";
import { renderToPipeableStream } from "react-dom/server";

export { serve } from "./serve-floor.mjs";

const outDir = process.env.BENCH_OUT;
const page = process.env.BENCH_PAGE ?? "/";
const manifest = JSON.parse(readFileSync(path.join(outDir, "manifest.json"), "utf8"));
const { App, createNonce, pageDocument } = await import(pathToFileURL(path.join(outDir, "floor/tree.mjs")).href);

/** Streams the page into `res`; resolves once piping has started (or the shell failed). */
export async function renderPage(res) {
  const { props, bootstrapScriptContent } = await pageDocument(manifest, page);
  return new Promise((resolve) => {
    const { pipe } = renderToPipeableStream(createElement(App, props), {
      nonce: createNonce(),
      bootstrapScriptContent,
      bootstrapModules: [manifest.entry.script],
      onShellReady() {
        setImmediate(() => {
          res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" });
          pipe(res);
          resolve();
        });
      },
      onShellError() {
        res.writeHead(500).end();
        resolve();
      },
    });
  });
}
