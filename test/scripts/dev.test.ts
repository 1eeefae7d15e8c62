import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launchChromium } from "../support/browser";
import { ROOT } from "../support/paths";

// `npm run dev` in a copy of the project (node_modules linked), so its edits never touch the
// real sources: a change is rebuilt and served once, a broken build keeps the old server,
// the open page reloads itself, and Ctrl-C leaves no process behind.
describe("npm run dev", () => {
  let dir: string;
  let dev: ChildProcess;
  let origin: string;
  const ready: string[] = [];
  let stderr = "";
  const page = () => path.join(dir, "src/app/home/HomePage.tsx");
  const html = async () => (await fetch(`${origin}/`)).text();

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "outpost-dev-"));
    for (const entry of ["src", "scripts", "package.json", "tsconfig.json"]) {
      cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
    }
    symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    // Its own process group, so the test can press Ctrl-C the way a terminal does.
    dev = spawn(process.execPath, ["scripts/dev.mjs"], {
      cwd: dir,
      detached: true,
      env: { PATH: process.env.PATH, HOST: "127.0.0.1", PORT: String(port), METRICS_PORT: "0", LOG_LEVEL: "warn" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    dev.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      ready.push(...chunk.split("\n").filter((line) => line.startsWith("[dev] rebuilt in")));
    });
    dev.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    await until(() => ready.length === 1, 30_000);
  });

  afterAll(() => {
    if (dev?.pid) for (const pid of [dev.pid, ...descendants(dev.pid)]) kill(pid);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("serves a changed page after one restart, and the open page reloads itself", async () => {
    expect(await html()).toContain("Welcome to Outpost");
    const browser = hasChromium ? await launchChromium() : undefined;
    try {
      const tab = await browser?.browser.newPage();
      // The reloaded page must run the new bundle: with the old one it would not hydrate cleanly.
      const hydrationProblems: string[] = [];
      tab?.on("console", (message) => {
        if (/hydrat/i.test(message.text())) hydrationProblems.push(message.text());
      });
      tab?.on("pageerror", (error) => hydrationProblems.push(error.message));
      await tab?.goto(`${origin}/`);
      await tab?.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });

      edit((source) => source.replace("Welcome to Outpost", "Welcome to the edited Outpost"));
      await until(() => ready.length === 2);
      expect(await html()).toContain("Welcome to the edited Outpost");
      // The page's new script is listed and served (hashed names: a reload cannot reuse the old one).
      const script = /<script[^>]+src="([^"]+)"/.exec(await html())?.[1];
      expect((await fetch(`${origin}${script}`)).status).toBe(200);

      if (tab) {
        await tab.waitForFunction(() => document.querySelector("h1")?.textContent === "Welcome to the edited Outpost");
        await tab.waitForSelector("html[data-hydrated=true]", { timeout: 10_000 });
        await tab.click("#counter");
        await expect(tab.textContent("#counter")).resolves.toBe("Clicked 1 time");
        await expect(tab.textContent("h1")).resolves.toBe("Welcome to the edited Outpost");
        expect(hydrationProblems).toEqual([]);
      }
      await sleep(500);
      expect(ready).toHaveLength(2);
    } finally {
      await browser?.close();
    }
  });

  it("prints esbuild's error and keeps the old server on a broken build, then recovers", async () => {
    const before = readFileSync(page(), "utf8");
    edit((source) => `${source}\nexport const broken = ;\n`);
    await until(() => stderr.includes("ERROR"));
    await sleep(300);
    expect(ready).toHaveLength(2);
    expect(await html()).toContain("Welcome to the edited Outpost");

    writeFileSync(page(), before.replace("the edited Outpost", "the mended Outpost"));
    await until(() => ready.length === 3);
    expect(await html()).toContain("Welcome to the mended Outpost");
  });

  it("stops every process it started on Ctrl-C", async () => {
    const pid = dev.pid as number;
    const children = descendants(pid);
    expect(children.length).toBeGreaterThanOrEqual(2); // at least the server and its standby
    const exited = new Promise<number | null>((resolve) => dev.once("exit", (code) => resolve(code)));
    process.kill(-pid, "SIGINT");
    expect(await exited).toBe(0);
    await until(() => children.every((child) => !alive(child)), 5_000);
  });

  function edit(change: (source: string) => string): void {
    writeFileSync(page(), change(readFileSync(page(), "utf8")));
  }
}, 60_000);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** Every process below `pid`, read from /proc (Linux). */
function descendants(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // "pid (comm) state ppid ...": comm may hold spaces, so read after its closing paren.
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {} // it exited meanwhile
  }
  const found: number[] = [];
  for (let queue = [pid]; queue.length > 0; ) {
    const parent = queue.pop();
    for (const [child, ppid] of parents) {
      if (ppid === parent) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z "); // a zombie has exited
  } catch {
    return false;
  }
}

function kill(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {}
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !condition(); await sleep(20)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${condition}`);
  }
}
