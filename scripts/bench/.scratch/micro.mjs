import { Writable } from "node:stream";
import { readFileSync } from "node:fs";
import { createElement } from "react";
import { renderToPipeableStream } from "react-dom/server";
const OUT = "/work/main/node_modules/.cache/outpost-bench";
const manifest = JSON.parse(readFileSync(`${OUT}/manifest.json`, "utf8"));
const { App, homeDocument } = await import(`${OUT}/floor/tree.mjs`);
const doc = await homeDocument(manifest);
function render(props) {
  return new Promise((resolve) => {
    const sink = new Writable({ write(c, e, cb) { cb(); }, final(cb) { cb(); resolve(); } });
    const { pipe } = renderToPipeableStream(createElement(App, props), { nonce: "abc", bootstrapScriptContent: doc.bootstrapScriptContent, bootstrapModules: [manifest.entry.script], onShellReady() { pipe(sink); } });
  });
}
const variants = {
  full: doc.props,
  noPreloads: { ...doc.props, modulePreloads: [] },
};
for (let round = 0; round < 3; round++) for (const [name, props] of Object.entries(variants)) {
  for (let i = 0; i < 300; i++) await render(props);
  const c = process.cpuUsage(); const N = 2000;
  for (let i = 0; i < N; i++) await render(props);
  const u = process.cpuUsage(c); console.log(name, ((u.user + u.system) / N).toFixed(1), "µs cpu/render");
}
