import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route } from "#src/shared/routing/config";
import { loadAppRoutes } from "../../support/app-routes";
import { send, until } from "../../support/raw-http";
import { redisUp } from "../../support/redis-app";
import { redisAvailable, startRedis, type TestRedis } from "../../support/redis-server";
import { startTestApp, type TestApp } from "../../support/test-app";

const PAGE = "/test/slow-article";
/** What the page shows: the data a render saw. */
let version = "old";
/** While set, a render's loader waits for it: the test decides when a slow render ends. */
let gate: Promise<void> | undefined;
/** Renders begun (loaders called). */
let renders = 0;

const routes = await loadAppRoutes({
  routes: [route("test/slow-article", "test/slow-article.tsx")],
  files: {
    "test/slow-article.tsx": {
      module: { default: ({ data }: { data: { version: string } }) => <p id="version">{data.version}</p> },
      server: {
        cache: { maxAge: 120, tags: ["article"] },
        load: async () => {
          renders++;
          const seen = version;
          await gate;
          return { version: seen };
        },
      },
    },
  },
});

let redis: TestRedis;
let replicas: TestApp[] = [];
/** Both replicas behind one name, as a load balancer passes it on: one key for the page (its origin is part of it). */
const shown = async (app: TestApp) =>
  /<p id="version">([^<]+)<\/p>/.exec((await send(Number(new URL(app.url).port), PAGE, { method: "GET", headers: { Host: "outpost.test" } })).text())?.[1];

describe.skipIf(!redisAvailable)("a revalidation on one replica while another renders the page", () => {
  beforeAll(async () => {
    redis = await startRedis();
    const env = { REDIS_URL: redis.url, REDIS_TIMEOUT_MS: "500" };
    replicas = await Promise.all([startTestApp(env, { routes }), startTestApp(env, { routes })]);
    await Promise.all(replicas.map(redisUp));
  });
  afterAll(async () => {
    await Promise.all(replicas.map((app) => app.close()));
    await redis.stop();
  });

  it("wins: the render that began before the drop is answered to its visitor but never stored, and every replica renders afresh", async () => {
    const [a, b] = replicas as [TestApp, TestApp];
    let open = () => {};
    gate = new Promise((resolve) => (open = resolve));
    // B starts a render that sees the old data and takes its time.
    const slow = shown(b);
    await until(() => renders === 1);
    // The data changes; A's action revalidates the tag (A's own cache only: revalidateTag() would reach both apps of this process).
    version = "new";
    await a.deps.services.pageCache?.revalidateTag("article");
    gate = undefined;
    open();
    expect(await slow).toBe("old");
    // B's store write has had time to land (or be refused).
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await shown(a)).toBe("new");
    expect(await shown(b)).toBe("new");
  });
});
