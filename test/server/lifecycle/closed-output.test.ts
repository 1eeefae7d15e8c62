import { afterEach, expect, it } from "vitest";
import { type ServerProcess, startServerProcess } from "../../support/server-process";

// A log reader that went away (`node … | head`, a crashed shipper) closes the server's stdout
// or stderr: writing there fails with EPIPE, which must never stop or crash the shutdown.

let server: ServerProcess | undefined;
afterEach(async () => {
  await server?.stop("SIGKILL");
  server = undefined;
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The exit code, or "still running" when the process outlived `ms`. */
async function exitWithin(target: ServerProcess, ms: number): Promise<number | null | "still running"> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"still running">((resolve) => {
    timer = setTimeout(() => resolve("still running"), ms);
  });
  const result = await Promise.race([target.stop("SIGTERM"), late]);
  clearTimeout(timer);
  return result;
}

it("exits 0 within the deadline on SIGTERM when stdout's reader has gone", async () => {
  server = await startServerProcess({ SHUTDOWN_TIMEOUT_MS: "2000" });
  // The shutdown's own log lines are then the first writes to meet the closed pipe.
  server.child.stdout?.destroy();
  await sleep(50);
  expect(await exitWithin(server, 3_000)).toBe(0);
});

it("finishes the drain when stdout and stderr are closed and something writes to both during it", async () => {
  // Stands in for a warning or a stray console line written while requests drain.
  const writeDuringDrain = `
    const write = () => { console.log("late"); console.error("late"); };
    process.on("SIGTERM", () => { setTimeout(write, 100); setTimeout(write, 200); });`;
  server = await startServerProcess({ NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(writeDuringDrain)}` });
  const page = fetch(`${server.url}/slow`).then((response) => response.status, () => "cut");
  server.child.stdout?.destroy();
  server.child.stderr?.destroy();
  await sleep(100);
  expect(await exitWithin(server, 5_000)).toBe(0);
  expect(await page).toBe(200);
});
