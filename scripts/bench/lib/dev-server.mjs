// `npm run dev` started for a bench: its port, its output so far, and a stop that waits for its exit.
import { spawn } from "node:child_process";
import path from "node:path";
import { freePort, sleep } from "./proc.mjs";

const READY = "[dev] rebuilt in";

/**
 * Starts scripts/dev.mjs in `cwd` and waits (30 s at most) for its first "rebuilt in" line.
 * @param {{ cwd: string, env?: Record<string, string> }} options
 */
export async function startDevServer({ cwd, env = {} }) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(cwd, "scripts/dev.mjs")], {
    cwd,
    env: { PATH: process.env.PATH, PORT: String(port), METRICS_PORT: "0", LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (chunk) => {
    output += chunk;
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    }
  };
  for (const deadline = started + 30_000; !output.includes(READY); await sleep(5)) {
    if (performance.now() > deadline) {
      await stop();
      throw new Error(`dev never started:\n${output}`);
    }
  }
  return {
    port,
    /** Milliseconds from the spawn to the first ready line. */
    startMs: performance.now() - started,
    /** How many builds it has said it is ready after: one more after each restart. */
    readyLines: () => output.split(READY).length - 1,
    stop,
  };
}
