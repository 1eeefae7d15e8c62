import { request as httpRequest } from "node:http";
import { Suspense } from "react";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Await } from "#src/shared/deferred/Await";
import { route } from "#src/shared/routing/config";
import { BUILD_HEADER } from "#src/shared/routing/data-request";
import type { LoaderContext, PageProps } from "#src/shared/routing/module";
import { loadAppRoutes } from "../../../support/app-routes";
import { recordingMonitoring } from "../../../support/fake-monitoring";
import { until } from "../../../support/raw-http";
import { startTestApp, type TestApp } from "../../../support/test-app";

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const FAIL_AFTER_MS = 300;

// Each request names itself with ?t=…: its loader started, then its value failed.
const started = new Set<string>();
const failed = new Set<string>();

const files = {
  "test/deferred-fails.tsx": {
    module: {
      default: ({ data }: PageProps<{ late: Promise<string> }>) => (
        <Suspense fallback={<p>waiting</p>}>
          <Await resolve={data.late} errorElement={<p id="late-error">failed</p>}>
            {(value) => <p>{value}</p>}
          </Await>
        </Suspense>
      ),
    },
    server: {
      load: ({ url }: LoaderContext) => {
        const token = url.searchParams.get("t") ?? "";
        started.add(token);
        const late = new Promise<string>((_resolve, reject) =>
          setTimeout(() => {
            failed.add(token);
            reject(new Error(`deferred failure ${token}`));
          }, FAIL_AFTER_MS),
        );
        return { late };
      },
    },
  },
};

const reporting = recordingMonitoring();
const timedOut = recordingMonitoring();
let app: TestApp;
let short: TestApp;

beforeAll(async () => {
  const routes = await loadAppRoutes({ routes: [route("test/deferred-fails", "test/deferred-fails.tsx")], files });
  app = await startTestApp({}, { monitoring: reporting.monitoring, routes });
  short = await startTestApp({ RENDER_TIMEOUT_MS: "100" }, { monitoring: timedOut.monitoring, routes });
});
afterAll(async () => {
  await app.close();
  await short.close();
});

type Leave = "at-first-bytes" | "once-loaded" | "never";

/** One request; `leave` says when its client goes away. Resolves once it has left or the answer has ended. */
function ask(base: string, target: string, { method = "GET", agent = CHROME, data = false, leave = "never" as Leave } = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { "user-agent": agent };
    if (data) headers[BUILD_HEADER] = app.deps.assets.manifest.buildId;
    const req = httpRequest(`${base}${data ? "/__data" : ""}${target}`, { method, headers, agent: false }, (res) => {
      if (leave === "at-first-bytes" && method === "GET") {
        res.once("data", () => {
          req.destroy();
          resolve(res.statusCode ?? 0);
        });
        return;
      }
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", (error) => (req.destroyed ? undefined : reject(error)));
    req.end();
    if (leave === "once-loaded") {
      const token = new URL(target, "http://x").searchParams.get("t") ?? "";
      void until(() => started.has(token)).then(() => {
        req.destroy();
        resolve(0);
      }, reject);
    }
  });
}

/** Waits until the request's value has failed and anything it set off has run. */
async function settled(token: string): Promise<void> {
  await until(() => failed.has(token), 5_000);
  await new Promise((resolve) => setImmediate(resolve));
}

describe("a deferred value that fails once nobody can receive it", () => {
  it.each([
    ["a page whose visitor left at the shell", "p1", { leave: "at-first-bytes" as Leave }],
    ["a page a crawler left while it rendered whole", "p2", { agent: GOOGLEBOT, leave: "once-loaded" as Leave }],
    ["a page's HEAD", "p3", { method: "HEAD" }],
    ["a page's HEAD by a crawler", "p4", { method: "HEAD", agent: GOOGLEBOT }],
    ["a data request left at its first line", "d1", { data: true, leave: "at-first-bytes" as Leave }],
    ["a data request's HEAD", "d2", { data: true, method: "HEAD" }],
  ])("is not reported: %s", async (_what, token, options) => {
    await ask(app.url, `/test/deferred-fails?t=${token}`, options);
    await settled(token);
    expect(reporting.errors).toEqual([]);
    expect(app.logs.filter((line) => line.level >= 50)).toEqual([]);
  });

  it.each([
    ["a page", "t1", {}],
    ["a data request", "t2", { data: true }],
  ])("is not reported after the time limit ended %s", async (_what, token, options) => {
    await ask(short.url, `/test/deferred-fails?t=${token}`, options);
    await settled(token);
    // The page's render timing out is reported, as before; the value failing later is not.
    expect(timedOut.errors.map((error) => (error as Error).message)).not.toContain(`deferred failure ${token}`);
  });
});

describe("a deferred value that fails while its visitor listens", () => {
  it.each([
    ["a page", "l1", {}],
    ["a page rendered whole for a crawler", "l2", { agent: GOOGLEBOT }],
    ["a data request", "l3", { data: true }],
  ])("is reported once: %s", async (_what, token, options) => {
    const before = reporting.errors.length;
    expect(await ask(app.url, `/test/deferred-fails?t=${token}`, options)).toBe(200);
    await settled(token);
    expect(reporting.errors.slice(before).map((error) => (error as Error).message)).toEqual([`deferred failure ${token}`]);
  });
});
