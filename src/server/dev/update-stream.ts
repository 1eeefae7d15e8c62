import { statSync } from "node:fs";
import path from "node:path";
import type { ServerResponse } from "node:http";
import type { Middleware } from "koa";
import {
  DEV_EVENTS_PATH,
  DEV_STATE_GLOBAL,
  DEV_VERSION_TIMING,
  type DevMessage,
  type DevState,
  type HotUpdate,
} from "../../shared/dev/hot-protocol";
import type { StaticFile } from "../assets/manifest";
import { pipeResponse } from "../http/stream-response";

/**
 * How long a pushed update may wait for open pages to say they have applied it (~20-50 ms,
 * more on a busy machine); a page still fetching then fetches again from the next server.
 */
const DELIVERY_TIMEOUT_MS = 300;
/** As many as the dev script keeps (scripts/dev/refresh/hot-updates.mjs). */
const KEPT_UPDATES = 20;

/**
 * Development only: the event stream open pages listen to (src/client/dev/hot-client.ts).
 * Each connection gets `hello` with this process's state. The dev script pushes a rebuild's
 * client part here over IPC before it replaces this process, so pages apply it without
 * waiting for the restart; the new files are served from then on. Once every open page has
 * posted that it applied the update (or after a short wait), the dev script is told, and
 * only then kills this process, after `endStreams` (see kept-listener.ts). `retry: 25` makes
 * pages reconnect at once, to wait in the kept socket's backlog for the next server.
 */
export function devUpdateStream({ files, clientDir }: { files: Map<string, StaticFile>; clientDir: string }): {
  middleware: Middleware;
  /** Ends every open stream with its final chunk; resolves once each is handed to the socket. */
  endStreams(): Promise<void>;
} {
  const handedOver = (globalThis as Record<string, unknown>)[DEV_STATE_GLOBAL] as DevState | undefined;
  const state: DevState = handedOver ?? { version: 0, updates: [], problems: [] };
  const streams = new Set<ServerResponse>();
  const deliveries = new Map<number, { waiting: number; done: () => void }>();

  const broadcast = (event: string, data: unknown) => {
    for (const stream of streams) stream.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  const push = (update: HotUpdate) => {
    let timer: NodeJS.Timeout | undefined;
    const done = () => {
      clearTimeout(timer);
      deliveries.delete(update.version);
      process.send?.({ type: "outpost-dev:delivered", version: update.version });
    };
    if (streams.size === 0) return done();
    deliveries.set(update.version, { waiting: streams.size, done });
    timer = setTimeout(done, DELIVERY_TIMEOUT_MS);
    broadcast("update", update);
  };

  process.on("message", (message: DevMessage) => {
    if (message.type === "outpost-dev:problems") {
      state.problems = message.problems;
      broadcast("problems", message.problems);
    } else if (message.type === "outpost-dev:update") {
      // Every one: a route chunk's old URL now serves its current file (scripts/dev/refresh/chunk-aliases.mjs).
      for (const [url, relative] of Object.entries(message.files)) {
        const absolutePath = path.join(clientDir, relative);
        files.set(url, { absolutePath, size: statSync(absolutePath).size });
      }
      // Announced to pages that connect before this process is replaced, too.
      state.updates = [...state.updates, message.update].slice(-KEPT_UPDATES);
      state.problems = [];
      push(message.update);
    }
  });

  const endStreams = () =>
    Promise.all(
      [...streams].map(
        (stream) =>
          new Promise<void>((resolve) => {
            stream.once("close", resolve);
            stream.end(resolve);
          }),
      ),
    ).then(() => {});

  const middleware: Middleware = (ctx, next) => {
    if (ctx.path !== DEV_EVENTS_PATH) {
      ctx.set("Server-Timing", `${DEV_VERSION_TIMING};desc="${state.version}"`);
      return next();
    }
    if (ctx.method === "POST") {
      // A page has applied an update: `?applied=<version>`.
      const delivery = deliveries.get(Number(ctx.query.applied));
      if (delivery && --delivery.waiting === 0) delivery.done();
      ctx.status = 204;
      return;
    }
    ctx.status = 200;
    ctx.type = "text/event-stream";
    ctx.set("Cache-Control", "no-store");
    // Written to directly: a page leaving (or reloading) is no error of the app's.
    pipeResponse(
      ctx,
      (res) => {
        streams.add(res);
        res.write(`retry: 25\nevent: hello\ndata: ${JSON.stringify(state)}\n\n`);
      },
      () => streams.delete(ctx.res),
    );
  };
  return { middleware, endStreams };
}
