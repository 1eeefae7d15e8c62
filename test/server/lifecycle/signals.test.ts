import { spawn } from "node:child_process";
import { once } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { ROOT } from "../../support/paths";
import { fixtureBuild } from "../../support/builds";
import { serverArgs } from "../../../scripts/server-command.mjs";
import { type ServerProcess, startServerProcess } from "../../support/server-process";

// What the built server does with signals: one drain per process, whatever arrives during it.

let server: ServerProcess | undefined;
afterEach(async () => {
  await server?.stop("SIGKILL");
  server = undefined;
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const SHUTTING_DOWN = "shutting down: draining in-flight requests";

/** The fixture's /slow page (a 700 ms loader), read whole: a request the drain must let finish. */
function slowPage(target: ServerProcess) {
  return fetch(`${target.url}/slow`).then(
    async (response) => ({ status: response.status, body: await response.text() }),
    (error: unknown) => ({ status: 0, body: String(error) }),
  );
}

describe("a second signal during the drain", () => {
  it.each([
    ["SIGTERM", "SIGTERM"],
    ["SIGINT", "SIGINT"],
    ["SIGINT", "SIGTERM"],
  ] as const)("%s then %s: the second is logged and ignored, the request finishes, exit 0", async (first, second) => {
    server = await startServerProcess();
    const page = slowPage(server);
    await sleep(100);
    const exited = server.stop(first);
    await server.waitForLogs((lines) => lines.some((line) => line.msg === SHUTTING_DOWN));
    await sleep(100);
    server.child.kill(second);

    expect(await page).toEqual({ status: 200, body: expect.stringContaining("Slow page, waited 700 ms") });
    expect(await exited).toBe(0);
    const lines = await server.waitForLogs((all) => all.some((line) => line.msg === "shutdown complete"));
    expect(lines.filter((line) => String(line.msg).startsWith("shutting down"))).toHaveLength(1);
    expect(lines).toContainEqual(
      expect.objectContaining({ signal: second, msg: "already shutting down: signal ignored, the drain goes on until its deadline" }),
    );
  });

  it("still ends at SHUTDOWN_TIMEOUT_MS: a request longer than the deadline is cut, exit 0", async () => {
    server = await startServerProcess({ SHUTDOWN_TIMEOUT_MS: "300" });
    const page = slowPage(server);
    await sleep(100);
    const signalled = Date.now();
    const exited = server.stop("SIGTERM");
    await sleep(100);
    server.child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(3_000);
    expect((await page).status).toBe(0);
  });
});

describe("a signal with nothing in flight", () => {
  it("SIGINT exits 0 at once, logging the drain", async () => {
    server = await startServerProcess();
    const signalled = Date.now();
    expect(await server.stop("SIGINT")).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(2_000);
    expect(server.output.join("\n")).toContain("shutdown complete");
  });

  it("before listening: the process ends at once (nothing to drain yet)", async () => {
    const child = spawn(process.execPath, serverArgs(fixtureBuild()), {
      cwd: ROOT,
      env: { PATH: process.env.PATH, NODE_ENV: "production", HOST: "127.0.0.1", PORT: "0", METRICS_PORT: "0", SENTRY_TUNNEL_SPOOL_DIR: "off" },
      stdio: ["ignore", "pipe", "ignore"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = once(child, "exit");
    await sleep(30);
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    const [code, signal] = await exited;
    clearTimeout(timer);
    expect(output).not.toContain('"listening"');
    expect({ code, signal }).toEqual({ code: null, signal: "SIGTERM" });
  });
});
