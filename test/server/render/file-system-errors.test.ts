import { createReadStream, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LoadedRouteFile } from "#src/server/routing/app-routes";
import { route } from "#src/shared/routing/config";
import { loadAppRoutes } from "../../support/app-routes";
import { ROOT } from "../../support/paths";
import { send } from "../../support/raw-http";
import { startTestApp, type TestApp } from "../../support/test-app";

// A file that is not there, under the server's own folder: its path is what must not leak.
const MISSING = `${ROOT}/no-such-folder/missing.txt`;

const files: Record<string, LoadedRouteFile> = {
  "fs/page.tsx": { module: { default: () => null }, server: { load: () => readFileSync(MISSING, "utf8") } },
  "fs/resource.server.ts": { server: { load: () => readFile(MISSING, "utf8") } },
  "fs/stream.server.ts": {
    server: { load: () => new Response(Readable.toWeb(createReadStream(MISSING)) as unknown as ReadableStream, { headers: { "Content-Type": "text/plain" } }) },
  },
};
const routes = await loadAppRoutes({
  routes: [route("fs/page", "fs/page.tsx"), route("fs/resource", "fs/resource.server.ts"), route("fs/stream", "fs/stream.server.ts")],
  files,
});

let app: TestApp;
let port: number;
beforeAll(async () => {
  app = await startTestApp({}, { routes });
  port = Number(new URL(app.url).port);
});
afterAll(() => app.close());

describe("a route whose file-system call fails", () => {
  it.each([["a page's loader", "/fs/page"], ["a resource route", "/fs/resource"], ["a resource route's streamed file", "/fs/stream"], ["its data request", "/__data/fs/page"]])(
    "%s never shows the client the error's text or a server path",
    async (_what, target) => {
      const response = await send(port, target, { method: "GET", headers: { "X-Outpost-Build": app.deps.assets.manifest.buildId } }).catch(
        // A body that fails after its headers went out can only be cut short.
        (error: Error) => ({ status: 0, text: () => error.message }),
      );
      const body = response.text();
      for (const secret of [ROOT, "ENOENT", "no such file", "missing.txt"]) expect(body).not.toContain(secret);
    },
  );
});
