import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium } from "../support/browser";
import { type DevSession, until } from "../support/dev-session";
import { type DevTab, openDevTab } from "../support/dev-tab";

const PAGE = "src/app/home/HomePage.tsx";
const ATTACHED = { state: "attached" } as const;

// Under `npm run dev` a save replaces the server under the open page: its event stream must end
// cleanly and come back to the next server, with nothing red in the console.
describe.skipIf(!hasChromium)("npm run dev: an event stream across restarts", () => {
  let dev: DevTab;
  let session: DevSession;
  let tab: Page;
  let consoleErrors: string[];
  let failedRequests: string[];

  beforeAll(async () => {
    dev = await openDevTab("/diagnostics/events");
    ({ session, tab, consoleErrors, failedRequests } = dev);
  }, 60_000);

  afterAll(() => dev?.close());

  const publish = async (message: string) => {
    const response = await fetch(`${session.origin}/diagnostics/events`, { method: "POST", body: new URLSearchParams({ message }), redirect: "manual" });
    await response.body?.cancel();
    expect(response.status).toBe(303);
  };

  it("a save ends the stream cleanly; the hook reconnects to the new server and shows what is published there", async () => {
    await tab.waitForSelector("#events-log[data-status=open]", ATTACHED);
    await publish("before the save");
    await tab.waitForSelector("#events-log li:text-is('before the save')");
    const restarts = session.ready.length;
    session.edit(PAGE, (source) => source.replace(/Welcome to Outpost/, "Welcome to Outpost, saved"));
    await until(() => session.ready.length > restarts, 20_000);
    await tab.waitForSelector("#events-log[data-status=reconnecting]", { ...ATTACHED, timeout: 10_000 });
    await tab.waitForSelector("#events-log[data-status=open]", { ...ATTACHED, timeout: 10_000 });
    await publish("after the save");
    await tab.waitForSelector("#events-log li:text-is('after the save')", { timeout: 10_000 });
    expect(consoleErrors).toEqual([]);
    expect(failedRequests).toEqual([]);
  }, 60_000);
});
