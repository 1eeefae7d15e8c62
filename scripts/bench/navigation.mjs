// Figure 6: the app platform's hot paths. The server render of / beside earlier builds (the one
// before the platform: nested routes, server-only loaders, client navigation; the one before the
// request context and sessions), each pair pinned to one core and loaded at once
// (lib/paired.mjs); and the JSON data request a client navigation to / makes, beside the server
// render of the same page.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { deferredTtfb } from "./deferred-ttfb.mjs";
import { buildProduction } from "./lib/build.mjs";
import { pairedRatio } from "./lib/paired.mjs";
import { BROWSER_UA, OUT, ROOT, runWorker, startHelper, startServer } from "./lib/proc.mjs";
import { fmt, medianRun, target } from "./lib/stats.mjs";

// What each earlier build is: the last commit before the app platform, the last before the
// request context and sessions, the last before deferred data and fetchers. BENCH_BASELINE_REV (comma separated) compares with others.
const BASELINES = {
  "98c3d41": "the build before the app platform",
  "3425102": "the build before the request context and sessions",
  d9feddf: "the build before deferred data and fetchers",
};
// The least ours ÷ that build may read; 0.97 unless a decision re-based it. 3425102 lacks the
// request context and sessions' own per-request work (d9feddf, with it, reads 0.977× 3425102) and
// the script recovery (1 %): docs/decisions/0113-navigation-and-upload-targets-rebased.md.
const TARGETS = { "3425102": 0.94 };
const BASELINE_REVS = process.env.BENCH_BASELINE_REV?.split(",") ?? Object.keys(BASELINES);

/** That revision's sources (git archive, so no worktree is registered) and its production build, kept between runs. */
export function baselineBuild(rev) {
  const sha = execFileSync("git", ["rev-parse", "--short=12", `${rev}^{commit}`], { cwd: ROOT, encoding: "utf8" }).trim();
  const dir = path.join(tmpdir(), `outpost-bench-baseline-${sha}`);
  if (!existsSync(path.join(dir, "dist", "manifest.json"))) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    execFileSync("sh", ["-c", `git archive ${sha} | tar -x -C "${dir}"`], { cwd: ROOT });
    linkPackages(dir);
    console.log(`building the baseline ${sha} in ${dir} ...`);
    buildProduction({ root: dir, outRel: "dist" });
  }
  return { dir, sha, label: BASELINES[rev] ?? `the build of ${rev}`, target: TARGETS[rev] ?? 0.97 };
}

/**
 * The baseline's node_modules: today's packages, linked, plus any it depends on that today's
 * code dropped (koa-send), installed at the baseline's own version beside it.
 */
function linkPackages(dir) {
  const modules = path.join(dir, "node_modules");
  mkdirSync(modules);
  for (const name of readdirSync(path.join(ROOT, "node_modules"))) symlinkSync(path.join(ROOT, "node_modules", name), path.join(modules, name));
  const own = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
  const dropped = Object.entries({ ...own.dependencies, ...own.devDependencies }).filter(([name]) => !existsSync(path.join(modules, name)));
  if (dropped.length === 0) return;
  const extra = path.join(dir, ".dropped-packages");
  mkdirSync(extra);
  const specs = dropped.map(([name, version]) => `${name}@${version}`);
  console.log(`installing ${specs.join(", ")} for the baseline (no longer a dependency) ...`);
  execFileSync("npm", ["install", "--prefix", extra, "--no-save", "--no-package-lock", "--ignore-scripts", "--no-audit", "--no-fund", ...specs], { stdio: "inherit" });
  for (const [name] of dropped) symlinkSync(path.join(extra, "node_modules", name), path.join(modules, name));
}

export async function navigation({ rounds, pairRounds, seconds, connections, warmupSec, durationSec }) {
  const baselines = BASELINE_REVS.map(baselineBuild);
  const ingest = await startHelper("fake-ingest.mjs");
  const sentry = { SENTRY_DSN: `http://publickey@127.0.0.1:${ingest.port}/42` };
  const rows = [];
  const verdicts = [];
  try {
    for (const baseline of baselines) {
      for (const [label, env] of [
        ["Sentry off", {}],
        ["Sentry on", sentry],
      ]) {
        const servers = [await startServer(env, { root: baseline.dir, outRel: "dist" }), await startServer(env)];
        try {
          const { ratio, rates } = await pairedRatio(servers, { rounds: pairRounds, seconds, connections });
          rows.push([`SSR of /, ${label}: ours ÷ ${baseline.sha} (paired, one core)`, rates.map(([a, b]) => `${fmt.int(b)} ÷ ${fmt.int(a)}`).join(" / "), fmt.x(ratio)]);
          verdicts.push(target(`Navigation: SSR of /, ${label}, >= ${baseline.target} × ${baseline.label}`, ratio >= baseline.target, fmt.x(ratio)));
        } finally {
          await Promise.all(servers.map((server) => server.stop()));
        }
      }
    }

    const ours = await startServer(sentry);
    try {
      const buildId = JSON.parse(readFileSync(path.join(OUT, "manifest.json"), "utf8")).buildId;
      const kinds = {
        "server render of /": { url: `${ours.origin}/`, headers: { "user-agent": BROWSER_UA } },
        "data request for / (/__data/)": { url: `${ours.origin}/__data/`, headers: { "user-agent": BROWSER_UA, "x-outpost-build": buildId } },
      };
      const runs = Object.fromEntries(Object.keys(kinds).map((name) => [name, []]));
      for (let round = 0; round < rounds; round++) {
        for (const [name, request] of Object.entries(kinds)) {
          runs[name].push(await runWorker("load-worker.mjs", { ...request, connections: 10, warmupSec, durationSec }));
        }
      }
      const [page, data] = Object.keys(kinds).map((name) => medianRun(runs[name]));
      rows.push(["server render of /, Sentry on, 10 connections: req/s", page.runs.join(" / "), fmt.int(page.rps)]);
      rows.push(["data request for /, Sentry on, 10 connections: req/s", data.runs.join(" / "), fmt.int(data.rps)]);
      verdicts.push(target("Navigation: the data request for / serves more req/s than its server render", data.rps > page.rps, `${fmt.int(data.rps)} vs ${fmt.int(page.rps)} req/s`));
    } finally {
      await ours.stop();
    }
    const deferred = await deferredTtfb({ requests: rounds * 100 });
    rows.push(...deferred.rows);
    verdicts.push(...deferred.verdicts);
  } finally {
    await ingest.stop();
  }
  return {
    title: "6. App platform: server render beside earlier builds, data requests",
    header: ["what", "req/s per round", "result"],
    rows,
    verdicts,
    notes: [
      `Baselines (BENCH_BASELINE_REV): ${baselines.map((b) => `${b.sha}, ${b.label}`).join("; ")}; each built from its own sources. Both servers are pinned to CPU 0 and loaded at once by one autocannon each on CPU 1 (${connections} connections, ${pairRounds} rounds of ${seconds} s), so the ratio of their req/s is the inverse ratio of their CPU time per page.`,
      "The data request is what a client navigation to / fetches: the matched routes' loader data as JSON, with the build id header.",
      "Time to first byte: one request at a time, alternating between the page whose loader defers a value (settling a second later) and the same page with the value already there (?ready=1), on a server with the diagnostics routes.",
    ],
  };
}
