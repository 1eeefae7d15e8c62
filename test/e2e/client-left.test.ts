import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BUILD_HEADER } from "#src/shared/routing/data-request";
import { eventsWithMessage, receivedItems } from "../support/envelopes";
import { fixtureBuild } from "../support/builds";
import { leaveEarly, send } from "../support/raw-http";
import { reportingServer } from "../support/reporting-stack";

// The fixture app's production build, run as the Dockerfile runs it, reporting to a fake ingest.
const stack = reportingServer({});

const portOf = () => Number(new URL(stack.server.url).port);

/** Once the marker error has reached the ingest, anything reported before it has too. */
async function markerArrived(count: number): Promise<void> {
  await (await fetch(`${stack.server.url}/diagnostics/server-error`)).text();
  await stack.ingest.waitFor(() => eventsWithMessage(stack.ingest, "diagnostic server error").length === count, 10_000);
}

const logLines = () => stack.server.output.map((line) => JSON.parse(line) as Record<string, unknown>);

describe("clients that leave early, against the production build", () => {
  it("100 public-file downloads cut short: no error log, no event, each counted", async () => {
    for (let i = 0; i < 100; i++) await leaveEarly(portOf(), i % 2 ? "/robots.txt" : "/favicon.ico");
    await markerArrived(1);
    expect(receivedItems(stack.ingest, "event").map((item) => item.payload.transaction)).toEqual(["GET /diagnostics/server-error"]);
    const errors = logLines().filter((line) => (line.level as number) >= 50 && line.msg !== "render error");
    expect(errors).toEqual([]);
    const left = logLines().filter((line) => line.msg === "request" && line.route === "public" && line.aborted === true).length;
    const metricsPort = logLines().find((line) => line.msg === "listening")?.metricsPort;
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(metrics).toContain(`outpost_http_client_left_total{route="public"} ${left}`);
  });

  it("deferred values failing after their client left or for a HEAD are not reported", async () => {
    const build = (JSON.parse(readFileSync(path.join(fixtureBuild(), "manifest.json"), "utf8")) as { buildId: string }).buildId;
    await leaveEarly(portOf(), "/diagnostics/deferred?fail=1");
    await leaveEarly(portOf(), "/__data/diagnostics/deferred?fail=1", `${BUILD_HEADER}: ${build}\r\n`);
    await send(portOf(), "/diagnostics/deferred?fail=1", { method: "HEAD" });
    await send(portOf(), "/__data/diagnostics/deferred?fail=1", { method: "HEAD", headers: { [BUILD_HEADER]: build } });
    // The value fails a second after its loader ran; a listened one started later fails after all of them.
    await (await fetch(`${stack.server.url}/diagnostics/deferred?fail=1`)).text();
    await stack.ingest.waitFor(() => eventsWithMessage(stack.ingest, "diagnostic deferred error").length >= 1, 10_000);
    await markerArrived(2);
    expect(eventsWithMessage(stack.ingest, "diagnostic deferred error")).toHaveLength(1);
  });
});
