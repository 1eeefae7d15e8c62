import { afterEach, describe, expect, it } from "vitest";
import { runFailingStart, type ServerProcess, startServerProcess } from "../support/server-process";

let server: ServerProcess | undefined;
afterEach(async () => {
  await server?.stop("SIGKILL");
  server = undefined;
});

describe("the built server process", () => {
  it("serves / and exits 0 on SIGTERM", async () => {
    server = await startServerProcess();
    const response = await fetch(`${server.url}/`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Fixture home");
    expect(await server.stop("SIGTERM")).toBe(0);
  });

  it("logs one JSON line per request with the route pattern, never the query", async () => {
    server = await startServerProcess();
    await (await fetch(`${server.url}/?token=secret-value`)).text();
    await (await fetch(`${server.url}/missing?x=1`)).text();
    const isRequest = (line: Record<string, unknown>) => line.msg === "request";
    const lines = await server.waitForLogs((all) => all.filter(isRequest).length >= 2);
    const requests = lines.filter(isRequest);
    expect(requests).toEqual([
      expect.objectContaining({ method: "GET", route: "/", status: 200, durationMs: expect.any(Number) }),
      expect.objectContaining({ method: "GET", route: "not_found", status: 404 }),
    ]);
    expect(server.output.join("\n")).not.toContain("secret-value");
  });

  it("stops at start with exit 1 and names a bad variable", async () => {
    const { code, stderr } = await runFailingStart({ PORT: "not-a-port" });
    expect(code).toBe(1);
    expect(stderr).toContain("PORT");
    expect(stderr).toContain("Invalid environment configuration");
  });
});
