// Figure 4: bytes the browser fetches for `/`, from the build manifest, split by origin using
// the metafile of an identical client rebuild (the production build does not keep its metafile).
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import * as esbuild from "esbuild";
import { loadAppConfig, routeModules } from "../build/app-routes.mjs";
import { APP_DIR, clientOptions } from "../build/options.mjs";
import { sentrySourceMapsPlugin } from "../build/sentry-sourcemaps.mjs";
import { OUT, ROOT } from "./lib/proc.mjs";
import { fmt, target } from "./lib/stats.mjs";

const INITIAL_LIMIT = 80 * 1024;
const SENTRY_LIMIT = 30 * 1024;
// Next.js's initial JavaScript for the same page (gzip, decimal KB, measured from outside): the
// anchor the initial JS with a DSN is held to half of.
const NEXT_ANCHOR = 196_000;
const origin = (input) =>
  /node_modules\/(react|react-dom|scheduler)\//.test(input) ? "react" : input.includes("node_modules/@sentry") ? "sentry" : "app";

async function sizes(file) {
  const bytes = await readFile(file);
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

export async function payload() {
  const manifest = JSON.parse(await readFile(path.join(OUT, "manifest.json"), "utf8"));
  const rebuildDir = path.join(OUT, "payload-rebuild");
  await rm(rebuildDir, { recursive: true, force: true });
  const { metafile } = await esbuild.build({
    ...clientOptions({ outDir: rebuildDir, production: true }),
    plugins: [...clientOptions({ outDir: rebuildDir, production: true }).plugins, sentrySourceMapsPlugin({ release: undefined, outDir: rebuildDir })],
  });
  const stem = (file) => path.basename(file).replace(/-[A-Z0-9]{8}\.js$/, "");
  // The rebuild's file names differ (esbuild's hashes cover the source maps, whose relative
  // paths differ with the output folder), so each measured file is paired with the rebuilt
  // output of the same name stem and byte size.
  const measured = new Map();
  for (const [url, file] of Object.entries(manifest.files)) {
    if (!url.endsWith(".js")) continue;
    const raw = (await readFile(path.join(OUT, "client", file))).length;
    measured.set(`${stem(url)}:${raw}`, url);
  }
  const urlOf = new Map();
  const outputOf = new Map();
  for (const [out, meta] of Object.entries(metafile.outputs)) {
    if (!out.endsWith(".js")) continue;
    // On disk, not meta.bytes: Sentry's plugin appends a debugId comment after esbuild is done.
    const url = measured.get(`${stem(out)}:${(await readFile(path.resolve(ROOT, out))).length}`);
    if (url) urlOf.set(out, url) && outputOf.set(url, meta);
  }
  const identical = urlOf.size === measured.size;

  const group = async (urls) => {
    const sum = { raw: 0, gzip: 0, brotli: 0, react: 0, sentry: 0, app: 0 };
    for (const url of urls) {
      const size = await sizes(path.join(OUT, "client", manifest.files[url]));
      for (const k of ["raw", "gzip", "brotli"]) sum[k] += size[k];
      const output = outputOf.get(url);
      if (!output) continue;
      const total = Object.values(output.inputs).reduce((n, i) => n + i.bytesInOutput, 0) || 1;
      // Compressed bytes cannot be attributed exactly; each file's gzip size is shared pro rata.
      for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
        sum[origin(input)] += (size.gzip * bytesInOutput) / total;
      }
    }
    return sum;
  };

  // What the server preloads for /: the entry (with the root layout) and the home page's chunk.
  const { config } = await loadAppConfig(ROOT, APP_DIR);
  const home = routeModules(ROOT, APP_DIR, config).find((module) => module.file === config.routes.find((entry) => entry.index)?.file);
  const homeChunk = manifest.routes[home?.id] ?? { script: undefined, imports: [] };
  const initialUrls = [...new Set([manifest.entry.script, ...manifest.entry.modulePreloads, homeChunk.script, ...homeChunk.imports])].filter(Boolean);
  // With a DSN the app's code (the entry, or in production a chunk it imports) imports a
  // reporting chunk once the page is idle after its load event, or at the first error:
  // error-reporting (which imports the SDK's chunk, sentry-client, at the page's first error),
  // or tracing (the SDK with tracing) where tracing is on. Each is counted with what it imports
  // that is not already loaded.
  const startUrls = (name, from, loaded) => {
    const urls = new Set();
    const visit = (out) => {
      const url = urlOf.get(out);
      if (!url || loaded.includes(url) || urls.has(url)) return;
      urls.add(url);
      for (const i of metafile.outputs[out].imports) if (i.kind === "import-statement") visit(i.path);
    };
    for (const url of from) {
      for (const i of outputOf.get(url)?.imports ?? []) {
        if (i.kind === "dynamic-import" && stem(i.path) === name) visit(i.path);
      }
    }
    return [...urls];
  };

  // Sizes are read from the measured build; the rebuild only supplies the attribution.
  const initial = await group(initialUrls);
  const idleUrls = startUrls("error-reporting", initialUrls, initialUrls);
  const idleChunk = await group(idleUrls);
  const sentryUrls = startUrls("sentry-client", idleUrls, [...initialUrls, ...idleUrls]);
  const sentryChunk = await group(sentryUrls);
  const tracingUrls = startUrls("tracing", initialUrls, initialUrls);
  const tracingChunk = await group(tracingUrls);
  // The stylesheets / links: the entry's, the root layout's, the home page's (route-assets.ts).
  const rootId = routeModules(ROOT, APP_DIR, config).find((module) => module.file === config.root)?.id;
  const css = await group([...new Set([...manifest.entry.styles, ...(manifest.routes[rootId]?.styles ?? []), ...(manifest.routes[home?.id]?.styles ?? [])])]);
  const plus = (...chunks) => Object.fromEntries(Object.keys(initial).map((k) => [k, chunks.reduce((sum, chunk) => sum + chunk[k], initial[k])]));
  const withSentry = plus(idleChunk);
  const row = (label, s, split = true) => [
    label,
    fmt.kib(s.raw),
    fmt.kib(s.gzip),
    fmt.kib(s.brotli),
    split ? `${fmt.kib(s.react)} / ${fmt.kib(s.sentry)} / ${fmt.kib(s.app)}` : "",
  ];
  return {
    title: "4. Browser payload for /",
    header: ["what", "raw", "gzip", "brotli", "gzip split: React / Sentry / app"],
    rows: [
      row(`initial JS for /: entry, its chunks and the home page's (${initialUrls.length} files)`, initial),
      row(`error-reporting chunk, fetched with a DSN once the page is idle after its load (${idleUrls.length} files)`, idleChunk),
      row(`Sentry SDK chunk, fetched at the page's first error (${sentryUrls.length} files)`, sentryChunk),
      row("JS once the page is idle with Sentry on: all that / loads without an error", withSentry),
      row("JS after the first error with Sentry on", plus(idleChunk, sentryChunk)),
      row(`JS once the page is idle with Sentry and tracing on (tracing chunk instead, ${tracingUrls.length} files)`, plus(tracingChunk)),
      row("CSS", css, false),
    ],
    // The targets: 71 KiB before route code splitting, at most 5 KiB more with it; the
    // SDK's chunk is fetched on every page of a site with a DSN that raises an error.
    verdicts: [
      target("Payload: initial JS for / <= 80 KiB gzip", initial.gzip <= INITIAL_LIMIT, fmt.kib(initial.gzip)),
      // With a DSN nothing more is fetched before the load event: reporting waits for the page to be idle.
      target(
        `Payload: initial JS for / with a DSN <= 0.5x Next's (${NEXT_ANCHOR / 1000} KB gzip)`,
        initial.gzip <= NEXT_ANCHOR / 2,
        `${(initial.gzip / 1000).toFixed(1)} KB, ${(initial.gzip / NEXT_ANCHOR).toFixed(2)}x`,
      ),
      // Everything / fetches with a DSN, the chunk fetched once it is idle included (issue 53).
      // No idle chunk found would be a broken measurement, not a pass.
      target(
        `Payload: all JS / loads with a DSN, idle chunk included, <= 0.5x Next's (${NEXT_ANCHOR / 2000} KB gzip)`,
        idleUrls.length > 0 && withSentry.gzip <= NEXT_ANCHOR / 2,
        `${(withSentry.gzip / 1000).toFixed(1)} KB, ${(withSentry.gzip / NEXT_ANCHOR).toFixed(2)}x`,
      ),
      target("Payload: Sentry SDK chunk fetched at the first error <= 30 KiB gzip", sentryUrls.length > 0 && sentryChunk.gzip <= SENTRY_LIMIT, fmt.kib(sentryChunk.gzip)),
    ],
    notes: [
      "gzip level 9 and brotli quality 11 with node:zlib. The split shares each file's gzip size among React (react, react-dom, scheduler), @sentry/* and the rest by esbuild's bytesInOutput.",
      `The metafile comes from a client rebuild with the production options${identical ? ", each of whose outputs has the same name stem and byte size as one of the measured build's" : "; its outputs did NOT all match the measured build's sizes, so the split is approximate"}. ` +
        "Only one copy of the SDK is loaded per page: sentry-client (through error-reporting, at the first error), or tracing (its own copy of the SDK plus browser tracing, once the page is idle) where SENTRY_TRACES_SAMPLE_RATE > 0.",
    ],
  };
}
