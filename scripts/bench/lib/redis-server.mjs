// A real redis-server on an ephemeral loopback port, persistence off: for the tests of shared
// state and the bench's Redis pairs. Never a mock.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { freePort } from "./proc.mjs";

export const REDIS_SERVER = process.env.REDIS_SERVER_PATH ?? "/usr/bin/redis-server";
export const redisAvailable = existsSync(REDIS_SERVER);

/** Starts one; kill() and start() again on the same port act out an outage, pause() a stall. */
export async function startRedis() {
  const port = await freePort();
  let child;
  const start = () =>
    new Promise((resolve, reject) => {
      const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--loglevel", "notice"];
      const started = spawn(REDIS_SERVER, args, { stdio: ["ignore", "pipe", "pipe"] });
      child = started;
      let output = "";
      started.stdout.on("data", (chunk) => {
        output += chunk.toString();
        if (output.includes("Ready to accept connections")) resolve();
      });
      started.once("error", reject);
      started.once("exit", (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
    });
  const kill = () =>
    new Promise((resolve) => {
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
