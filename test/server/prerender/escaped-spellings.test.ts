import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_HEADER } from "../../../src/shared/routing/data-request";
import { fixtureBuild } from "../../support/builds";
import { send } from "../../support/raw-http";
import { type ServerProcess, startServerProcess } from "../../support/server-process";

// A param reaches the page decoded, so the router matches `/static/%66irst` as `/static/first`: a
// prerendered page is found under an escaped spelling too, never rendered live (its loader ran at build).

let server: ServerProcess;
let buildId: string;
beforeAll(async () => {
  buildId = (JSON.parse(readFileSync(path.join(fixtureBuild(), "manifest.json"), "utf8")) as { buildId: string }).buildId;
  server = await startServerProcess({ SESSION_SECRET: "s".repeat(32) });
}, 60_000);
afterAll(() => server.stop());

describe("a prerendered page asked under an escaped spelling of its path", () => {
  it("is redirected (308) to its own path, its data answered from the build, and no loader runs", async () => {
    const port = Number(new URL(server.url).port);
    for (const [asked, location] of [
      ["/static/%66irst", "/static/first"],
      ["/static/fir%73t/?a=1", "/static/first?a=1"],
    ]) {
      for (const method of ["GET", "HEAD"]) {
        const answer = await send(port, asked as string, { method });
        expect(answer.status).toBe(308);
        expect(answer.headers.location).toBe(location);
      }
    }
    const data = await send(port, "/__data/static/s%65cond", { method: "GET", headers: { [BUILD_HEADER]: buildId } });
    expect(data.headers["cache-status"]).toBe("outpost; hit; detail=prerendered");
    expect((JSON.parse(data.text()) as { state: { data: Record<string, { slug: string }> } }).state.data.Static?.slug).toBe("second");
    expect(server.output.join("\n")).not.toContain("static loader ran");
  });
});
