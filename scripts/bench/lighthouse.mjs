#!/usr/bin/env node
// `npm run lighthouse`: Lighthouse (mobile preset, simulated throttling) against the production
// build in Debian's Chromium, the median of 3 runs per page; prints the table, writes it to
// LIGHTHOUSE.md and exits 1 when a page misses a target.
//   --runs=N   runs per page (default 3; a performance miss is measured N more times)
//   --no-write leave LIGHTHOUSE.md alone
import { mkdtempSync, rmSync } from "node:fs";
import os, { tmpdir } from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { buildProduction } from "./lib/build.mjs";
import { CHROMIUM_FLAGS, CHROMIUM_PATH, hasChromium } from "./lib/chromium.mjs";
import { ROOT, startHelper, startServer } from "./lib/proc.mjs";
import { writeBenchmarks } from "./lib/report.mjs";
import { median } from "./lib/stats.mjs";

const runs = Number(process.argv.find((a) => a.startsWith("--runs="))?.slice(7) ?? 3);
const write = !process.argv.includes("--no-write");
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];
const PERFORMANCE_TARGET = 95;
// Lighthouse's benchmark index here reads ~3,100 in the least loaded runs seen, 600-2,500 when other work holds the CPU.
const BUSY_HOST_INDEX = 2_500;

/**
 * What is measured: `indexable` pages are held to SEO 100; a page with a `status` is measured
 * despite it, the audits about that status (console error, status code) counted as passed.
 */
const PAGES = [
  { name: "home", path: "/", indexable: true },
  { name: "feedback (DSN set: form and SDK)", path: "/feedback", indexable: true },
  // robots.txt keeps crawlers out of /diagnostics: SEO 100 but for that one audit.
  { name: "deferred (streamed value)", path: "/diagnostics/deferred", indexable: true, disallowed: true },
  { name: "404", path: "/no-such-page", indexable: false, status: 404 },
];

if (!hasChromium) {
  console.error(`no Chromium at ${CHROMIUM_PATH}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  process.exit(1);
}
delete process.env.SENTRY_AUTH_TOKEN;
const started = Date.now();
const loadBefore = os.loadavg()[0];
console.log("building the production server (node scripts/build.mjs) ...");
buildProduction();
const ingest = await startHelper("fake-ingest.mjs");
const server = await startServer({ SENTRY_DSN: `http://publickey@127.0.0.1:${ingest.port}/1`, ENABLE_DIAGNOSTIC_ROUTES: "true" });
const profile = mkdtempSync(path.join(tmpdir(), "outpost-lighthouse-"));
const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROMIUM_FLAGS, userDataDir: profile });

const rows = [];
const misses = [];
try {
  for (const page of PAGES) {
    const measured = [];
    const measure = async (count) => {
      for (let run = 0; run < count; run++) {
        measured.push(scores(await audit(page), page));
        console.log(`${page.path} run ${measured.length}: ${JSON.stringify(measured.at(-1))}`);
      }
      return Object.fromEntries(Object.keys(measured[0]).map((key) => [key, median(measured.map((m) => m[key]))]));
    };
    let result = await measure(runs);
    // Performance alone is timing, which a busy moment moves: a miss is measured again, and the
    // median is then over twice the runs. The other categories are the page's own and never re-run.
    if (missesOf(page, result).length && missesOf(page, { ...result, performance: PERFORMANCE_TARGET }).length === 0) {
      console.log(`${page.path}: performance ${result.performance} < ${PERFORMANCE_TARGET}; ${runs} more runs`);
      result = await measure(runs);
    }
    rows.push({ page, result, perRun: measured.map((m) => m.performance) });
    misses.push(...missesOf(page, result));
  }
} finally {
  await chrome.kill();
  rmSync(profile, { recursive: true, force: true });
  await server.stop();
  await ingest.stop();
}

const minutes = ((Date.now() - started) / 60_000).toFixed(1);
const markdown = render(rows, misses, minutes);
console.log(`\n${markdown}`);
if (write) {
  writeBenchmarks(path.join(ROOT, "LIGHTHOUSE.md"), markdown);
  console.log("wrote LIGHTHOUSE.md");
}
process.exit(misses.length ? 1 : 0);

/**
 * One Lighthouse run. A run whose recording failed (NO_NAVSTART, NO_FCP: Lighthouse's own
 * "please run Lighthouse again") is run again, twice at most; scores are never taken from it.
 */
async function audit(page, attempts = 3) {
  const { lhr } = await lighthouse(`${server.origin}${page.path}`, {
    port: chrome.port,
    output: "json",
    logLevel: "error",
    onlyCategories: CATEGORIES,
    ignoreStatusCode: Boolean(page.status),
  });
  if (!lhr.runtimeError) return lhr;
  const problem = `${page.path}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`;
  if (attempts <= 1) throw new Error(problem);
  console.log(`${problem}; running it again`);
  return audit(page, attempts - 1);
}

/** Category scores (0-100) and the figures behind performance, from one run. */
function scores(lhr, page) {
  const asideStatus = page.status ? { "errors-in-console": ownStatusOnly(lhr), "http-status-code": true } : {};
  return {
    performance: categoryScore(lhr, "performance"),
    accessibility: categoryScore(lhr, "accessibility"),
    bestPractices: categoryScore(lhr, "best-practices", asideStatus),
    seo: categoryScore(lhr, "seo", { ...asideStatus, ...(page.disallowed ? { "is-crawlable": true } : {}) }),
    lcpMs: Math.round(lhr.audits["largest-contentful-paint"].numericValue ?? Number.NaN),
    tbtMs: Math.round(lhr.audits["total-blocking-time"].numericValue ?? Number.NaN),
    cls: Number((lhr.audits["cumulative-layout-shift"].numericValue ?? Number.NaN).toFixed(3)),
    // Lighthouse's measure of the host's CPU (it warns below 1000): low when the machine is loaded.
    benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
  };
}

/**
 * A category's score as Lighthouse computes it (the weighted mean of its audits), with the
 * audits named in `aside` counted as passed when their value is true. A scored audit that
 * errored counts 0 (Lighthouse would give the category no score), a miss rather than a pass.
 */
function categoryScore(lhr, category, aside = {}) {
  let weighted = 0;
  let weights = 0;
  for (const ref of lhr.categories[category].auditRefs) {
    const audit = lhr.audits[ref.id];
    // Lighthouse has already weighted not-applicable, manual and informative audits 0.
    if (!ref.weight) continue;
    weighted += (aside[ref.id] ? 1 : (audit.score ?? 0)) * ref.weight;
    weights += ref.weight;
  }
  return Math.round((weighted / weights) * 100);
}

/** Whether the only console errors are the 4xx document's own ("Failed to load resource: 404"). */
function ownStatusOnly(lhr) {
  const items = lhr.audits["errors-in-console"].details?.items ?? [];
  return items.every((item) => item.source === "network" && item.sourceLocation?.url === lhr.finalDisplayedUrl);
}

function missesOf(page, result) {
  const found = [];
  const need = (ok, what) => ok || found.push(`${page.path}: ${what}`);
  need(result.accessibility === 100, `accessibility ${result.accessibility} < 100`);
  need(result.bestPractices === 100, `best practices ${result.bestPractices} < 100`);
  if (page.indexable) need(result.seo === 100, `SEO ${result.seo} < 100`);
  need(result.performance >= PERFORMANCE_TARGET, `performance ${result.performance} < ${PERFORMANCE_TARGET}`);
  return found;
}

function render(rows, misses, minutes) {
  const line = (cells) => `| ${cells.join(" | ")} |`;
  const header = ["page", "performance (runs)", "accessibility", "best practices", "SEO", "LCP ms", "TBT ms", "CLS", "CPU benchmark index"];
  return [
    `Generated by \`npm run lighthouse\` on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC: Lighthouse 12.2.3 on Node ${process.version}, ` +
      `Chromium at ${CHROMIUM_PATH}, mobile preset (simulated throttling), median of ${runs} runs per figure. Total run ${minutes} min; ` +
      `load average ${loadBefore.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} at the end, on ${os.cpus().length} CPUs.`,
    "",
    "### Targets",
    "",
    "```",
    ...rows.map(({ page, result }) => {
      const miss = missesOf(page, result);
      return `${miss.length ? "MISS" : "PASS"}  ${page.path}: accessibility 100, best practices 100${page.status ? ` (its own ${page.status} aside)` : ""}${page.indexable ? `, SEO 100${page.disallowed ? " (robots.txt Disallow aside)" : ""}` : ""}, performance >= ${PERFORMANCE_TARGET}${miss.length ? `: ${miss.join("; ")}` : ""}`;
    }),
    "```",
    "",
    line(header),
    line(header.map(() => "---")),
    ...rows.map(({ page, result, perRun }) =>
      line([
        `${page.name} \`${page.path}\``,
        `${result.performance} (${perRun.join(" / ")})`,
        result.accessibility,
        result.bestPractices,
        page.indexable ? result.seo : `${result.seo} (not indexable)`,
        result.lcpMs,
        result.tbtMs,
        result.cls,
        result.benchmarkIndex,
      ]),
    ),
    "",
    misses.length ? `${misses.length} miss(es).` : "Every target met.",
    ...(rows.some(({ result }) => result.benchmarkIndex < BUSY_HOST_INDEX)
      ? [`The host looked busy (CPU benchmark index under ${BUSY_HOST_INDEX} where the least loaded runs read ~3,100): performance reads low under load; re-run on a quiet machine before chasing a miss.`]
      : []),
  ].join("\n");
}
