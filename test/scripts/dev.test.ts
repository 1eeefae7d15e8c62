import { readFileSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { networkInterfaces } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launchChromium } from "../support/browser";
import { alive, type DevSession, descendants, sleep, startDevSession, until } from "../support/dev-session";
import { FIXTURE_APP } from "../support/paths";

// `npm run dev` in a copy of the project: a change is rebuilt and served once, a broken build
// keeps the old server, the open page follows, and Ctrl-C leaves no process behind. (What the
// page keeps across an update is test/scripts/dev-refresh.test.ts's.) It serves the fixture app
// (OUTPOST_APP_DIR), so a product edit cannot break it.
describe("npm run dev", () => {
  let session: DevSession;
  const PAGE = `${FIXTURE_APP}/Home.tsx`;
  const html = async () => (await fetch(`${session.origin}/`)).text();

  beforeAll(async () => {
    session = await startDevSession({ appDir: FIXTURE_APP });
  });

  afterAll(() => session?.close());

  it("serves a changed page after one restart, and the open page follows", async () => {
    const { ready } = session;
    expect(await html()).toContain("Fixture home");
    const browser = hasChromium ? await launchChromium() : undefined;
    try {
      const tab = await browser?.browser.newPage();
      // The page must run the new code: with the old one it would not hydrate cleanly.
      const hydrationProblems: string[] = [];
      tab?.on("console", (message) => {
        if (/hydrat/i.test(message.text())) hydrationProblems.push(message.text());
      });
      tab?.on("pageerror", (error) => hydrationProblems.push(error.message));
      await tab?.goto(`${session.origin}/`);
      await tab?.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });

      session.edit(PAGE, (source) => source.replace("Fixture home", "Fixture home, edited"));
      await until(() => ready.length === 2);
      expect(await html()).toContain("Fixture home, edited");
      // The page's new script is listed and served (hashed names: a reload cannot reuse the old one).
      const script = /<script[^>]+src="([^"]+)"/.exec(await html())?.[1];
      expect((await fetch(`${session.origin}${script}`)).status).toBe(200);

      if (tab) {
        await tab.waitForFunction(() => document.querySelector("h1")?.textContent === "Fixture home, edited");
        await tab.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
        await tab.click("#count");
        await expect(tab.textContent("#count")).resolves.toBe("1");
        await expect(tab.textContent("h1")).resolves.toBe("Fixture home, edited");
        expect(hydrationProblems).toEqual([]);
      }
      await sleep(500);
      expect(ready).toHaveLength(2);
    } finally {
      await browser?.close();
    }
  });

  it("prints esbuild's error and keeps the old server on a broken build, then recovers", async () => {
    const { ready } = session;
    const file = path.join(session.dir, PAGE);
    const before = readFileSync(file, "utf8");
    session.edit(PAGE, (source) => `${source}\nexport const broken = ;\n`);
    await until(() => session.stderr().includes("ERROR"));
    await sleep(300);
    expect(ready).toHaveLength(2);
    expect(await html()).toContain("Fixture home, edited");

    writeFileSync(file, before.replace("Fixture home, edited", "Fixture home, mended"));
    await until(() => ready.length === 3);
    expect(await html()).toContain("Fixture home, mended");
  });

  // This machine's own address on a non-loopback interface: what the local network would connect to.
  const ownAddress = Object.values(networkInterfaces())
    .flat()
    .find((address) => address && !address.internal && address.family === "IPv4")?.address;
  it.skipIf(!ownAddress)(`is not reachable on this machine's non-loopback address ${ownAddress ?? "(skipped: this machine has none)"} unless HOST says so`, async () => {
    const port = Number(new URL(session.origin).port);
    expect((await fetch(`${session.origin}/`)).status).toBe(200); // loopback is served
    const outcome = await new Promise<string>((resolve) => {
      const socket = connect({ host: ownAddress, port });
      socket.once("connect", () => {
        socket.destroy();
        resolve("connected");
      });
      socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    });
    expect(outcome).toBe("ECONNREFUSED");
  });

  it("stops every process it started on Ctrl-C", async () => {
    const { dev } = session;
    const pid = dev.pid as number;
    const children = descendants(pid);
    expect(children.length).toBeGreaterThanOrEqual(2); // at least the server and its standby
    const exited = new Promise<number | null>((resolve) => dev.once("exit", (code) => resolve(code)));
    process.kill(-pid, "SIGINT");
    expect(await exited).toBe(0);
    await until(() => children.every((child) => !alive(child)), 5_000);
  });
}, 60_000);
