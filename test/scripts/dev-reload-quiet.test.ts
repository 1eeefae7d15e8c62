import { readFileSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium } from "../support/browser";
import { type DevSession, until } from "../support/dev-session";
import { type DevTab, openDevTab } from "../support/dev-tab";

const readSource = (dir: string, file: string) => readFileSync(path.join(dir, file), "utf8");

const PAGE = "src/app/home/HomePage.tsx";

// A developer saving a file: the server restarts under the open page, whose reload channel
// follows it without one red line in the console (a developer who learns to ignore red
// errors misses the real one).
describe.skipIf(!hasChromium)("npm run dev: the reload channel across restarts", () => {
  let dev: DevTab;
  let session: DevSession;
  let tab: Page;
  let consoleErrors: string[];
  let failedRequests: string[];

  beforeAll(async () => {
    dev = await openDevTab("/");
    ({ session, tab, consoleErrors, failedRequests } = dev);
  });

  afterAll(() => dev?.close());

  it("three saves, three restarts, each applied in place: no console error, no failed request", async () => {
    for (const round of [1, 2, 3]) {
      const restarts = session.ready.length;
      const title = `Welcome to Outpost, save ${round}`;
      session.edit(PAGE, (source) => source.replace(/Welcome to Outpost(, save \d)?/, title));
      await until(() => session.ready.length > restarts, 20_000);
      await tab.waitForFunction((expected) => document.querySelector("#home-title")?.textContent === expected, title, { timeout: 10_000 });
      // The page's channel is connected to the new server: a later update would reach it.
      await tab.waitForFunction(() => performance.getEntriesByType("resource").some((entry) => entry.name.endsWith("/__dev/reload")));
    }
    // Once more after the last restart, when reconnection errors would have shown.
    const restarts = session.ready.length;
    session.edit(PAGE, (source) => source.replace(/Welcome to Outpost, save 3/, "Welcome to Outpost, save 4"));
    await until(() => session.ready.length > restarts, 20_000);
    await tab.waitForFunction(() => document.querySelector("#home-title")?.textContent === "Welcome to Outpost, save 4", null, { timeout: 10_000 });
    expect(consoleErrors).toEqual([]);
    expect(failedRequests).toEqual([]);
  });

  it("a server that fails to start leaves the port closed (a request is refused, not left waiting); the next good save serves again", async () => {
    const APP_SERVER = "src/app/app.server.ts";
    const good = readSource(session.dir, APP_SERVER);
    session.edit(APP_SERVER, (source) => `${source}\nthrow new Error("broken at start");\n`);
    await until(() => session.stderr().includes("the server did not start"), 20_000);
    const port = Number(new URL(session.origin).port);
    const outcome = await new Promise<string>((resolve) => {
      const socket = connect({ host: "127.0.0.1", port });
      socket.once("connect", () => {
        socket.destroy();
        resolve("connected");
      });
      socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
    });
    expect(outcome).toBe("ECONNREFUSED");
    const restarts = session.ready.length;
    session.edit(APP_SERVER, () => good);
    await until(() => session.ready.length > restarts, 20_000);
    expect((await fetch(`${session.origin}/`)).status).toBe(200);
  });
});
