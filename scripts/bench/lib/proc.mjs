// Child processes for the benchmarks: every server, floor and load generator runs in its own
// process, so none of them shares an event loop with another or with this orchestrator.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { SERVER_NODE_FLAGS, serverArgs } from "../../server-command.mjs";

export const ROOT = path.resolve(import.meta.dirname, "../../..");
export const BENCH_DIR = path.join(ROOT, "scripts/bench");
// Not dist/: others test against dist/ in this checkout. Under node_modules so the external
// packages of the server build still resolve and no linter or test runner looks inside.
// BENCH_OUT_DIR (relative to the repo) keeps two runs in one checkout from sharing a build.
export const OUT_REL = process.env.BENCH_OUT_DIR ?? "node_modules/.cache/outpost-bench";
export const OUT = path.join(ROOT, OUT_REL);
export const BROWSER_UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";

const children = new Set();
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    for (const child of children) child.kill("SIGKILL");
    process.exit(130);
  });
}
process.on("exit", () => {
  for (const child of children) child.kill("SIGKILL");
});

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function track(child, label) {
  children.add(child);
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const exited = once(child, "exit").then(([code, signal]) => {
    children.delete(child);
    return { code, signal, stderr };
  });
  return {
    child,
    pid: child.pid,
    exited,
    label,
    async stop(signal = "SIGTERM") {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill(signal);
      const timer = setTimeout(() => child.kill("SIGKILL"), 8000);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
}

/**
 * A helper script that prints `{"port":N}` once listening (fake ingest, floors); `node`: another
 * Node binary. A floor runs with the server's node flags, so a ratio to it compares code, not flags.
 */
export async function startHelper(script, env = {}, { nodeFlags = [], node = process.execPath } = {}) {
  const flags = script.startsWith("floor-") ? [...SERVER_NODE_FLAGS, ...nodeFlags] : nodeFlags;
  const child = spawn(node, [...flags, path.join(BENCH_DIR, script)], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, NODE_ENV: "production", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const proc = track(child, script);
  const [line] = await Promise.race([
    once(child.stdout.setEncoding("utf8"), "data"),
    proc.exited.then((r) => Promise.reject(new Error(`${script} exited: ${r.stderr}`))),
  ]);
  proc.port = JSON.parse(line.split("\n")[0]).port;
  proc.origin = `http://127.0.0.1:${proc.port}`;
  return proc;
}

/**
 * The production server as `npm start` runs it, from the bench build. `node` is another Node
 * binary to run it with (the production version: see ../production-node.mjs); default: this one.
 * `root` and `outRel`: another checkout's build (the navigation group's baseline).
 */
export async function startServer(env = {}, { nodeFlags = [], pollMs = 5, node = process.execPath, root = ROOT, outRel = OUT_REL } = {}) {
  const port = await freePort();
  // Every server a spool of its own, removed when it exits.
  const spoolDir = mkdtempSync(path.join(tmpdir(), "outpost-bench-spool-"));
  const started = performance.now();
  const child = spawn(
    node,
    serverArgs(`./${outRel}`, nodeFlags),
    {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: "production",
        HOST: "127.0.0.1",
        PORT: String(port),
        METRICS_PORT: "0",
        LOG_LEVEL: "warn",
        SENTRY_TUNNEL_RATE_LIMIT: "0",
        SENTRY_TUNNEL_SPOOL_DIR: spoolDir,
        ...env,
      },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  child.once("exit", () => rmSync(spoolDir, { recursive: true, force: true }));
  const proc = track(child, "server");
  proc.port = port;
  proc.origin = `http://127.0.0.1:${port}`;
  proc.readyMs = await untilReady(proc, started, pollMs);
  return proc;
}

/** Milliseconds from `started` to the first /readyz 200. */
export async function untilReady(proc, started, intervalMs = 5) {
  let dead = false;
  void proc.exited.then(() => {
    dead = true;
  });
  for (;;) {
    if (dead) throw new Error(`${proc.label} exited before ready: ${(await proc.exited).stderr}`);
    try {
      const response = await fetch(`${proc.origin}/readyz`);
      await response.arrayBuffer();
      if (response.ok) return performance.now() - started;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

export function rssBytes(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) * 1024;
}

// Linux reports a process's CPU time in clock ticks of 1/100 s (USER_HZ) on every mainstream build.
const TICK_MICROS = 10_000;

/** CPU time (user + system) a process has used so far, in microseconds. */
export function cpuMicros(pid) {
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_MICROS;
}

/** Samples a process's RSS every `intervalMs`; stop() returns { peak, samples }. */
export function sampleRss(pid, intervalMs = 50) {
  let peak = rssBytes(pid);
  let samples = 1;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssBytes(pid));
      samples++;
    } catch {}
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      try {
        peak = Math.max(peak, rssBytes(pid));
      } catch {}
      return { peak, samples };
    },
  };
}

/** Runs a worker script to completion and parses the JSON it prints last. */
export async function runWorker(script, input, { cpu } = {}) {
  // `cpu`: pin the worker to that CPU (taskset), e.g. to keep load off a pinned server's core.
  const command = [process.execPath, path.join(BENCH_DIR, script)];
  if (cpu !== undefined) command.unshift("taskset", "-c", String(cpu));
  const child = spawn(command[0], command.slice(1), {
    cwd: ROOT,
    env: { PATH: process.env.PATH, BENCH_INPUT: JSON.stringify(input) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const proc = track(child, script);
  let stdout = "";
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
  });
  const { code, stderr } = await proc.exited;
  if (code !== 0) throw new Error(`${script} failed (${code}): ${stderr}`);
  return JSON.parse(stdout.trim().split("\n").pop());
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Pins a running server (all its threads) to CPU 0, leaving CPU 1 to load generators. Needs taskset (util-linux). */
export function pinToCpu0(proc) {
  return new Promise((resolve, reject) =>
    spawn("taskset", ["-a", "-p", "-c", "0", String(proc.pid)], { stdio: "ignore" }).on("exit", resolve).on("error", reject),
  );
}
