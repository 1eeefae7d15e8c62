import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { FIXTURE_APP, ROOT } from "./paths";

/**
 * `npm run dev` in a copy of the project (node_modules linked), so a test's edits never touch
 * the real sources. Its own process group, so a test can press Ctrl-C the way a terminal does.
 */
export interface DevSession {
  dir: string;
  dev: ChildProcess;
  origin: string;
  /** The "[dev] rebuilt in …" lines printed so far. */
  ready: string[];
  /** Every "[dev] …" line printed so far. */
  log: string[];
  stderr(): string;
  /** Rewrites a file of the copy (path relative to it). */
  edit(file: string, change: (source: string) => string): void;
  /** Kills every process of the session and removes the copy. */
  close(): void;
}

/** `appDir` (relative to the project) is the app the dev script serves (OUTPOST_APP_DIR): the product's unless a test asks for the fixture app. */
export async function startDevSession({ appDir = "src/app" }: { appDir?: typeof FIXTURE_APP | "src/app" } = {}): Promise<DevSession> {
  const dir = mkdtempSync(path.join(tmpdir(), "outpost-dev-"));
  // .gitignore as in a clone: Tailwind's scanner skips what it names (build outputs among them).
  for (const entry of ["src", "scripts", "package.json", "tsconfig.json", ".gitignore", ...(appDir === FIXTURE_APP ? [FIXTURE_APP] : [])]) {
    cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
  }
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
  const port = await freePort();
  const dev = spawn(process.execPath, ["scripts/dev.mjs"], {
    cwd: dir,
    detached: true,
    // No HOST: the dev script's own default (loopback) is what the tests' origin reaches.
    env: { PATH: process.env.PATH, PORT: String(port), METRICS_PORT: "0", LOG_LEVEL: "warn", OUTPOST_APP_DIR: appDir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const ready: string[] = [];
  const log: string[] = [];
  let stderr = "";
  dev.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    const lines = chunk.split("\n").filter((line) => line.startsWith("[dev] "));
    log.push(...lines);
    ready.push(...lines.filter((line) => line.startsWith("[dev] rebuilt in")));
  });
  dev.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const session: DevSession = {
    dir,
    dev,
    origin: `http://127.0.0.1:${port}`,
    ready,
    log,
    stderr: () => stderr,
    edit(file, change) {
      const absolute = path.join(dir, file);
      writeFileSync(absolute, change(readFileSync(absolute, "utf8")));
    },
    close() {
      if (dev.pid) for (const pid of [dev.pid, ...descendants(dev.pid)]) kill(pid);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await until(() => ready.length === 1, 30_000);
  } catch (error) {
    session.close();
    throw new Error(`npm run dev did not start: ${(error as Error).message}\n${stderr}`);
  }
  return session;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** Every process below `pid`, read from /proc (Linux). */
export function descendants(pid: number): number[] {
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

export function alive(pid: number): boolean {
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

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !condition(); await sleep(20)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${condition}`);
  }
}
