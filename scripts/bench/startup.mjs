// Figure 5: production start-up (spawn to first /readyz 200, on this Node and on production's),
// the dev loop's rebuild + restart, and dev start-up and Fast Refresh as a browser sees them.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { devRefresh, PAGE } from "./dev-refresh.mjs";
import { cpuMicros, freePort, OUT_REL, ROOT, sleep, startHelper, startServer } from "./lib/proc.mjs";
import { productionNode, productionNodeVersion } from "./production-node.mjs";
import { buildFor } from "./runtime-build.mjs";
import { warmCompileCache } from "../image/warm-compile-cache.mjs";
import { median, target } from "./lib/stats.mjs";

/** Issue 53: the node process's start-up on Node 20, as it was before issues 41-45 (docs/decisions/0109-start-up-source-maps.md). */
const NODE20_TARGET_MS = 250;

export async function startup({ spawns, edits }) {
  const { rows, verdicts, notes } = await productionStartup(spawns);

  const dev = await devRebuilds(edits);
  const ready = median(dev.map((d) => d.readyMs));
  rows.push(["dev: rebuilt in (dev.mjs)", `${Math.round(median(dev.map((d) => d.rebuiltMs)))} ms`, dev.map((d) => d.rebuiltMs).join(" / ")]);
  rows.push(["dev: rebuilt and restarted, ready in (dev.mjs)", `${Math.round(ready)} ms`, dev.map((d) => d.readyMs).join(" / ")]);
  rows.push(["dev: file written to ready line (wall clock)", `${Math.round(median(dev.map((d) => d.wallMs)))} ms`, dev.map((d) => Math.round(d.wallMs)).join(" / ")]);
  rows.push(["dev: restarts per change", String(median(dev.map((d) => d.restarts))), dev.map((d) => d.restarts).join(" / ")]);
  const wall = median(dev.map((d) => d.wallMs));
  verdicts.push(target("Dev rebuild + restart after a one-line change < 300 ms", wall < 300, `${Math.round(wall)} ms, file written to server ready`));

  const refresh = await devRefresh({ edits });
  rows.push(["dev: start-up to first ready line", `${Math.round(refresh.startMs)} ms`, String(Math.round(refresh.startMs))]);
  verdicts.push(target("Dev start-up < 2 s", refresh.startMs < 2000, `${Math.round(refresh.startMs)} ms, spawn to first ready line`));
  for (const page of refresh.pages) {
    const dom = median(page.samples);
    rows.push([`dev: file written to changed DOM (Fast Refresh), ${page.name}`, `${Math.round(dom)} ms`, page.samples.map(Math.round).join(" / ")]);
    verdicts.push(
      target(
        `Dev one-line change, ${page.name}, file written to changed DOM <= 150 ms`,
        dom <= 150 && page.reloads === 0,
        `${Math.round(dom)} ms in Chromium, ${page.reloads} reloads`,
      ),
    );
  }
  return {
    title: "5. Start-up and development",
    header: ["what", "median", "runs (ms)"],
    rows,
    verdicts,
    notes: [
      ...notes,
      `Dev: \`scripts/dev.mjs\` with LOG_LEVEL=warn; ${edits} times a comment line is appended to src/app/home/HomePage.tsx and then removed again (each write is a one-line change, so ${edits * 2} samples). "rebuilt"/"ready" are dev.mjs's own figures, counted from its watcher's first event for the change; the wall clock, from the write to the ready line (after a /readyz 200 from the new server), is what the target is judged on. Only ready lines naming HomePage.tsx count, as others editing this checkout cause their own.`,
      `Fast Refresh: a fresh \`scripts/dev.mjs\` (start-up timed from spawn to its first ready line) and a Chromium page on / and then one on /diagnostics/client-error; ${edits * 2} times each, 1.5 s apart, the text of #home-title in src/app/home/HomePage.tsx (a component only), then the heading and the \`head\` title of src/diagnostics/ClientErrorPage.tsx (one string in both), is changed (and back), timed from just before the write to the moment a MutationObserver in the page sees the new text (and title) (both wall-clock times on this machine). A sample where the page reloaded instead counts as a miss.`,
    ],
  };
}

/**
 * Spawn to first /readyz 200 of the production build, Sentry off and on, with this Node and
 * with the production one (the Dockerfile's, see production-node.mjs): start-up depends on
 * the runtime (module loading, Sentry's module hooks). Rounds interleave the configurations.
 * The target is production's: Sentry on, production's Node; the rest is context.
 */
async function productionStartup(spawns) {
  const production = productionNode();
  const here = { name: `Node ${process.versions.node}, this machine`, node: process.execPath, outRel: OUT_REL };
  const runtimes = [here];
  let unmeasured = production ? undefined : "the production Node is unavailable";
  if (production && production.path !== process.execPath) {
    try {
      const outRel = buildFor(production.path);
      const name = `Node ${production.version}, production`;
      // As the image runs it: with the compile cache its build step fills (Dockerfile).
      runtimes.push({ name: `${name}, the image's compile cache`, node: production.path, outRel, production: true, env: await warmedCache(production.path, outRel) });
      runtimes.push({ name: `${name}, no compile cache`, node: production.path, outRel, env: {} });
    } catch (error) {
      unmeasured = `no build for it: ${error.message.split("\n")[0]}`;
      console.warn(`start-up on Node ${production.version} not measured: ${unmeasured}`);
    }
  } else if (production) {
    here.production = true;
    here.env = await warmedCache(process.execPath, OUT_REL);
  }
  const ingest = await startHelper("fake-ingest.mjs");
  const configs = runtimes.flatMap((runtime) =>
    [
      ["Sentry off", {}],
      ["Sentry on", { SENTRY_DSN: `http://publickey@127.0.0.1:${ingest.port}/42` }],
    ].map(([label, env]) => ({ label: `${label}, ${runtime.name}`, env: { ...runtime.env, ...env }, runtime, times: [], cpu: [] })),
  );
  try {
    for (let i = 0; i < spawns; i++) {
      for (const config of configs) {
        const server = await startServer(config.env, { pollMs: 2, node: config.runtime.node, outRel: config.runtime.outRel });
        config.times.push(server.readyMs);
        // CPU time used by then (all threads): on a machine shared with other work, wall-clock
        // start-up mostly measures the wait for a core, this the work itself.
        config.cpu.push(cpuMicros(server.pid) / 1000);
        await server.stop();
      }
    }
  } finally {
    await ingest.stop();
  }
  const rows = [];
  const verdicts = [];
  const goal = `Start-up to /readyz, Sentry on, Node ${productionNodeVersion().split(".")[0]} (production) < 400 ms`;
  // The lowest Node the project supports (package.json engines), as `npm start` runs on a developer's machine.
  const node20 = process.versions.node.startsWith("20.");
  const node20Goal = (sentry) => `Start-up to /readyz, Sentry ${sentry}, Node 20 (this machine) < ${NODE20_TARGET_MS} ms`;
  for (const { label, env, runtime, times, cpu } of configs) {
    const ms = median(times);
    rows.push([`start-up to /readyz 200, ${label}`, `${Math.round(ms)} ms`, times.map(Math.round).join(" / ")]);
    rows.push([`CPU time by then, ${label}`, `${Math.round(median(cpu))} ms`, cpu.map(Math.round).join(" / ")]);
    if (runtime.production && env.SENTRY_DSN) verdicts.push(target(goal, ms < 400, `${Math.round(ms)} ms`));
    if (runtime === here && node20) verdicts.push(target(node20Goal(env.SENTRY_DSN ? "on" : "off"), ms < NODE20_TARGET_MS, `${Math.round(ms)} ms`));
  }
  if (unmeasured) verdicts.push(target(goal, false, `not measured: ${unmeasured}`));
  if (!node20) for (const sentry of ["off", "on"]) verdicts.push(target(node20Goal(sentry), false, `not measured: this machine runs Node ${process.versions.node}`));
  const notes = [
    `Start-up: ${spawns} fresh processes per configuration (rounds interleaved), /readyz polled every 2 ms from the orchestrator, timed from just before spawn; the tunnel's spool on (as in production), its native addon compiled for each Node (runtime-build.mjs). Production's Node runs with a module compile cache filled by one start beforehand, as the image ships one (scripts/image/warm-compile-cache.mjs, run by the Dockerfile's build stage); "no compile cache" is the same Node without it. Targets: production's configuration (Sentry on), and both of this machine's when it runs Node 20 (< ${NODE20_TARGET_MS} ms); the other rows are context. CPU time: the server's user + system time (all its threads, from /proc in 10 ms ticks) at that first 200, which contention for the cores inflates far less than the wall clock.`,
  ];
  if (unmeasured) {
    notes.push(`Start-up on the production Node (${productionNodeVersion()}) not measured (${unmeasured}): see scripts/bench/production-node.mjs and runtime-build.mjs.`);
  }
  return { rows, verdicts, notes };
}

/** NODE_COMPILE_CACHE for `node`, filled by one start of the build as the image's is; removed at exit. */
async function warmedCache(node, outRel) {
  const dir = mkdtempSync(path.join(tmpdir(), "outpost-bench-compile-cache-"));
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  await warmCompileCache({ dir, node, root: ROOT, outRel });
  return { NODE_COMPILE_CACHE: dir };
}

async function devRebuilds(edits) {
  const original = readFileSync(PAGE, "utf8");
  const line = "// bench: one-line change, removed again by scripts/bench/startup.mjs\n";
  // Only our line is removed, so an edit someone else makes meanwhile survives.
  const restore = () => {
    const current = readFileSync(PAGE, "utf8");
    if (current.endsWith(line)) writeFileSync(PAGE, current.slice(0, -line.length));
  };
  process.on("exit", restore);
  const child = spawn(process.execPath, [path.join(ROOT, "scripts/dev.mjs")], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, PORT: String(await freePort()), METRICS_PORT: "0", LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines = [];
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (chunk) => {
    output += chunk;
    // "[dev] rebuilt in N ms, ready in M ms (changed files): url"; no files on the first start.
    for (const match of chunk.matchAll(/\[dev\] rebuilt in (\d+) ms, ready in (\d+) ms( \([^)]*\))?/g)) {
      lines.push({ rebuiltMs: Number(match[1]), readyMs: Number(match[2]), cause: match[3] ?? "", at: performance.now() });
    }
  });
  // Every ready line the change causes (others editing this checkout meanwhile cause their own,
  // which name their files instead).
  const linesAfter = async (change, ours = () => true) => {
    const seen = lines.length;
    const written = performance.now();
    change();
    for (const deadline = written + 30_000; !lines.slice(seen).some(ours); await sleep(10)) {
      if (performance.now() > deadline) throw new Error(`dev never reported a rebuild:\n${output}`);
    }
    await sleep(1500);
    const own = lines.slice(seen).filter(ours);
    const last = own.at(-1);
    return { rebuiltMs: last.rebuiltMs, readyMs: last.readyMs, wallMs: last.at - written, restarts: own.length };
  };
  const samples = [];
  try {
    await linesAfter(() => {});
    const ours = (ready) => ready.cause.includes(path.relative(ROOT, PAGE));
    for (let i = 0; i < edits; i++) {
      samples.push(await linesAfter(() => writeFileSync(PAGE, original + line), ours));
      samples.push(await linesAfter(restore, ours));
    }
  } finally {
    restore();
    process.off("exit", restore);
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
  }
  if (readFileSync(PAGE, "utf8") !== original) throw new Error("HomePage.tsx was not restored");
  return samples;
}
