// The dev server process and its warm standby (scripts/dev/standby.mjs). A restart kills the
// running server and tells the standby, which already holds koa, react-dom/server, pino-pretty
// and the rest, to import the new build: ~50 ms instead of a ~550 ms cold start.
import { spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";

const STANDBY = path.join(import.meta.dirname, "standby.mjs");

/** @param {{ root: string, serverDir: string, env: NodeJS.ProcessEnv, port: string }} options */
export function devServer({ root, serverDir, env, port }) {
  let server = null;
  let standby = null;
  let stopped = false;
  // The first server's listening socket, held here (never accepted on) and given to each next
  // server, so that requests made during a restart wait for it rather than being refused.
  let listener;
  const url = readyUrl(env.HOST, port);

  function spawnStandby(packages) {
    const child = spawn(process.execPath, ["--enable-source-maps", STANDBY, serverDir, ...packages], {
      cwd: root,
      env,
      stdio: ["inherit", "inherit", "inherit", "ipc"],
    });
    child.on("message", (message, handle) => {
      if (message?.type === "outpost-dev:listening" && handle) listener = handle;
    });
    const exited = once(child, "exit");
    const died = exited.then(() => Promise.reject(new Error("exited")));
    const message = (text) =>
      Promise.race([new Promise((resolve) => child.on("message", (m) => m === text && resolve())), died]);
    const proc = { child, exited, preloaded: message("preloaded"), started: message("started") };
    proc.preloaded.catch(() => {});
    proc.started.catch(() => {});
    return proc;
  }

  /** No server runs (one failed to start, or exited): the port closes, so a request is refused rather than left waiting. */
  function dropListener() {
    listener?.close();
    listener = undefined;
  }

  /** Lets the server stop accepting and end its pages' event streams cleanly first (a cut stream is a console error). */
  async function handOver(proc, timeoutMs = 500) {
    const child = proc?.child;
    if (!child?.connected) return;
    await new Promise((resolve) => {
      const onMessage = (reply) => reply?.type === "outpost-dev:handed-over" && done();
      const done = () => {
        child.off("message", onMessage);
        child.off("exit", done);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      child.on("message", onMessage);
      child.once("exit", done);
      child.send({ type: "outpost-dev:handover" }, () => {});
    });
  }

  async function kill(proc) {
    if (proc && proc.child.exitCode === null && proc.child.signalCode === null) {
      // SIGKILL, not a drain: the open reload stream would hold a drain for its whole deadline.
      proc.child.kill("SIGKILL");
      await proc.exited;
    }
  }

  return {
    /** Starts the standby early, e.g. while the first client build runs. */
    prepare(packages) {
      standby ??= spawnStandby(packages);
    },
    /**
     * Sends the running server a message for its event stream; for an update, resolves once
     * its open pages have applied it (the server says so), so the restart cannot cut them off.
     */
    async tell(message, timeoutMs = 800) {
      const child = server?.child;
      if (!child?.connected) return;
      const delivered =
        message.type === "outpost-dev:update" &&
        new Promise((resolve) => {
          const onMessage = (reply) => reply?.type === "outpost-dev:delivered" && reply.version === message.update.version && done();
          const done = () => {
            child.off("message", onMessage);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(done, timeoutMs);
          child.on("message", onMessage);
        });
      child.send(message, () => {});
      await delivered;
    },
    /**
     * Replaces the running server with the current build; resolves true once /readyz is 200.
     * `state` is what its event stream announces (src/shared/dev/hot-protocol.ts).
     */
    async restart(packages, state) {
      const previous = server;
      const next = standby ?? spawnStandby(packages);
      server = next;
      standby = null;
      try {
        await handOver(previous);
        await kill(previous);
        await next.preloaded;
        next.child.send({ type: "run", state }, listener, () => {}); // should it have just died, `started` rejects
        if (!(await untilReady(next, url))) {
          dropListener();
          return false;
        }
        void next.exited.then(([code, signal]) => {
          if (next.child.killed || stopped) return;
          dropListener();
          console.error(`[dev] the server exited (${signal ?? code}); save a file to restart it`);
        });
        return true;
      } catch {
        dropListener();
        return false; // it exited, and has printed why
      } finally {
        // Only now, so its preloading does not compete with this start for the CPU.
        if (!stopped) standby ??= spawnStandby(packages);
      }
    },
    async stop() {
      stopped = true;
      await Promise.all([kill(server), kill(standby)]);
    },
  };
}

async function untilReady(proc, url, timeoutMs = 15_000) {
  const deadline = performance.now() + timeoutMs;
  await Promise.race([proc.started, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
  // Confirmed from outside, as a developer would see it.
  while (performance.now() < deadline) {
    if (proc.child.exitCode !== null || proc.child.signalCode !== null) return false;
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.ok) return true;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return false;
}

/** Where to ask for /readyz: the listening address, or loopback when it listens on all. */
function readyUrl(host, port) {
  const name = !host || host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
  return `http://${name.includes(":") ? `[${name}]` : name}:${port}/readyz`;
}
