import { readFileSync } from "node:fs";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { staleBuildReason } from "../../scripts/build/freshness.mjs";
import { serverArgs } from "../../scripts/server-command.mjs";
import { productBuild } from "../support/builds";
import { BROWSER_USER_AGENT } from "../support/html";
import { DIST, ROOT } from "../support/paths";
import { type ServerProcess, startServerProcess } from "../support/server-process";

// `npm start` (scripts/start.mjs) runs the server as its child: a Ctrl-C, which the terminal
// sends to the whole process group, or a signal to npm start alone, drains the server and
// npm start exits with its code.

let server: ServerProcess | undefined;
afterEach(async () => {
  await server?.stop("SIGKILL");
  server = undefined;
});

const ENV = { ENABLE_DIAGNOSTIC_ROUTES: "true", SENTRY_TUNNEL_SPOOL_DIR: "off" };

describe("npm start", () => {
  // The product's build made first (once per run): npm start would otherwise rebuild dist/ under the other tests' servers.
  beforeAll(() => {
    productBuild();
    expect(staleBuildReason(ROOT, DIST), "dist/ is older than its sources").toBeUndefined();
  });

  it.each([
    ["Ctrl-C (SIGINT to the process group)", "group", "SIGINT"],
    ["SIGTERM to npm start alone", "parent", "SIGTERM"],
  ] as const)("%s: the page in flight finishes, the log says so, exit 0", async (_, target, signal) => {
    server = await startServerProcess(ENV, { npmStart: true });
    // The deferred page streams its shell at once and its slow part a second later.
    const response = await fetch(`${server.url}/diagnostics/deferred`, { headers: { "user-agent": BROWSER_USER_AGENT } });
    expect(response.status).toBe(200);
    const reader = response.body?.getReader();
    const decoder = new TextDecoder();
    const first = await reader?.read();
    expect(decoder.decode(first?.value, { stream: true })).not.toContain("the slow value");

    if (target === "group") void server.stop(signal);
    else server.child.kill(signal);
    let rest = "";
    for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader?.read()) rest += decoder.decode(chunk.value, { stream: true });
    expect(rest).toContain("the slow value");
    expect(await server.exited).toBe(0);
    const lines = await server.waitForLogs((all) => all.some((line) => line.msg === "shutdown complete"));
    expect(lines).toContainEqual(expect.objectContaining({ msg: "shutting down: draining in-flight requests", signal }));
  }, 60_000);

  it("runs React's production build when the shell sets no NODE_ENV", async () => {
    server = await startServerProcess(ENV, { npmStart: true });
    const response = await fetch(`${server.url}/diagnostics/render-error`, { headers: { "user-agent": BROWSER_USER_AGENT } });
    expect(response.status).toBe(500);
    await response.text();
    // The logged error's stack runs through React's server renderer: its file says which build it is.
    const lines = await server.waitForLogs((all) => all.some((line) => JSON.stringify(line).includes("react-dom-server.node.")));
    const stacks = lines.map((line) => JSON.stringify(line)).filter((line) => line.includes("react-dom-server.node."));
    expect(stacks.join("\n")).toContain("react-dom-server.node.production.js");
    expect(stacks.join("\n")).not.toContain("react-dom-server.node.development.js");
  }, 60_000);

  it("runs the server with the production node flags (scripts/server-command.mjs, as the image's CMD)", async () => {
    server = await startServerProcess(ENV, { npmStart: true });
    const lines = await server.waitForLogs((all) => all.some((line) => line.msg === "listening"));
    const serverPid = Number(lines.find((line) => line.msg === "listening")?.pid);
    // Linux's /proc: the arguments, each ended by a NUL.
    const argv = readFileSync(`/proc/${serverPid}/cmdline`, "utf8").split("\0").slice(0, -1);
    expect(argv).toContain("--max-semi-space-size=32");
    expect(argv.slice(1)).toEqual(serverArgs());
  }, 60_000);

  it("exits 128 + the signal's number when the server is killed outright, as a shell reports it", async () => {
    server = await startServerProcess(ENV, { npmStart: true });
    const lines = await server.waitForLogs((all) => all.some((line) => line.msg === "listening"));
    const serverPid = Number(lines.find((line) => line.msg === "listening")?.pid);
    expect(serverPid).not.toBe(server.child.pid);
    process.kill(serverPid, "SIGKILL");
    expect(await server.exited).toBe(137);
  }, 60_000);
});
