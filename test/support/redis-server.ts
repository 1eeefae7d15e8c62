import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";

const REDIS_SERVER = process.env.REDIS_SERVER_PATH ?? "/usr/bin/redis-server";

/** Whether a real redis-server can be started; tests that need one skip with a message otherwise. */
export const redisAvailable = existsSync(REDIS_SERVER);
if (!redisAvailable) console.warn(`redis tests skipped: no redis-server at ${REDIS_SERVER} (apt-get install -y redis-server, or set REDIS_SERVER_PATH)`);

export interface TestRedis {
  url: string;
  port: number;
  /** Kills the server at once (SIGKILL), as a crashed or partitioned Redis. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
  /** Freezes it (SIGSTOP): connections stay open and commands go unanswered, as a stalled Redis. */
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
}

/** A loopback port free at the time of asking, for servers that cannot report the one they bound. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** A real redis-server on an ephemeral loopback port, persistence off, stopped by stop(). */
export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = () =>
    new Promise<void>((resolve, reject) => {
      const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--loglevel", "notice"];
      const started = spawn(REDIS_SERVER, args, { stdio: ["ignore", "pipe", "pipe"] });
      child = started;
      let output = "";
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("Ready to accept connections")) resolve();
      };
      started.stdout?.on("data", onData);
      started.once("error", reject);
      started.once("exit", (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
    });
  const kill = () =>
    new Promise<void>((resolve) => {
      if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGKILL");
    });
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill,
    start,
    stop: async () => {
      child?.kill("SIGCONT");
      await kill();
    },
    pause: () => child?.kill("SIGSTOP"),
    resume: () => child?.kill("SIGCONT"),
  };
}
