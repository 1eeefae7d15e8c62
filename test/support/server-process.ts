import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { serverArgs } from "../../scripts/server-command.mjs";
import { built, fixtureBuild, productBuild } from "./builds";
import { FIXTURE_DIST, ROOT } from "./paths";

export interface ServerProcess {
  url: string;
  /** The metrics listener, `http://127.0.0.1:<METRICS_PORT>`. */
  metricsUrl: string;
  child: ChildProcess;
  /** Every stdout line so far (JSON logs). */
  output: string[];
  /** Resolves with the parsed JSON log lines once `predicate` holds for them (polling). */
  waitForLogs(predicate: (lines: Array<Record<string, unknown>>) => boolean, timeoutMs?: number): Promise<Array<Record<string, unknown>>>;
  /** The exit code once the process has exited (null when a signal ended it). */
  exited: Promise<number | null>;
  /** SIGTERM (or `signal`), then the exit code; under `npmStart`, to the whole process group, as a terminal's Ctrl-C. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface ServerProcessOptions {
  /** The build to run: the fixture app's (made first if stale) unless this picks another (DIST, the product's); `npmStart` always runs the product's. */
  dist?: string;
  /** Run `npm start`'s script (scripts/start.mjs, on the product's build, made first if stale) in a process group of its own. */
  npmStart?: boolean;
}

/** Spawns a built server the way production runs it, on an ephemeral port: the fixture app's build unless `dist` picks another (DIST, the product's). */
export async function startServerProcess(
  env: Record<string, string> = {},
  { dist = path.join(ROOT, FIXTURE_DIST), npmStart = false }: ServerProcessOptions = {},
): Promise<ServerProcess> {
  // A spool of its own unless the test chose one, removed when the process exits.
  const spoolDir = env.SENTRY_TUNNEL_SPOOL_DIR ? undefined : mkdtempSync(path.join(tmpdir(), "outpost-spool-"));
  const args = npmStart ? [path.join(ROOT, "scripts", "start.mjs")] : serverArgs(built(dist));
  if (npmStart) productBuild();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    detached: npmStart,
    env: {
      PATH: process.env.PATH,
      // npm start sets its own, as it must when the shell sets none.
      ...(npmStart ? {} : { NODE_ENV: "production" }),
      HOST: "127.0.0.1",
      PORT: "0",
      METRICS_PORT: "0",
      ...(spoolDir ? { SENTRY_TUNNEL_SPOOL_DIR: spoolDir } : {}),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (spoolDir) child.once("exit", () => rmSync(spoolDir, { recursive: true, force: true }));
  const output: string[] = [];
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = once(child, "exit").then(([code]) => code as number | null);
  const listening = await new Promise<Record<string, unknown>>((resolve, reject) => {
    let buffered = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        output.push(line);
        const parsed = safeJson(line);
        if (parsed?.msg === "listening") resolve(parsed);
      }
    });
    void exited.then((code) => reject(new Error(`server exited with ${code} before listening:\n${stderr}`)));
  });
  return {
    url: `http://127.0.0.1:${listening.port}`,
    metricsUrl: `http://127.0.0.1:${listening.metricsPort}`,
    child,
    output,
    exited,
    async waitForLogs(predicate, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const lines = output.map(safeJson).filter((line): line is Record<string, unknown> => line !== null);
        if (predicate(lines)) return lines;
        if (Date.now() > deadline) throw new Error(`log lines never matched:\n${output.join("\n")}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async stop(signal = "SIGTERM") {
      // The group even once npm start has exited: a server it left behind must not outlive the test.
      if (npmStart && child.pid) killGroup(child.pid, signal);
      if (child.exitCode !== null) return child.exitCode;
      if (!npmStart) child.kill(signal);
      return exited;
    },
  };
}

/** Runs the built server expecting it to fail at start; returns its exit code and stderr. */
export async function runFailingStart(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, serverArgs(fixtureBuild()), {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOST: "127.0.0.1", PORT: "0", METRICS_PORT: "0", SENTRY_TUNNEL_SPOOL_DIR: "off", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  const [code] = await once(child, "exit");
  clearTimeout(timer);
  return { code: code as number | null, stderr };
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: nothing of the group is left.
  }
}

function safeJson(line: string): Record<string, unknown> | null {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return null;
  }
}
