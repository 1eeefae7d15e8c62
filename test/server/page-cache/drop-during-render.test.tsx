import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route } from "#src/shared/routing/config";
import { loadAppRoutes } from "../../support/app-routes";
import { send, until } from "../../support/raw-http";
import { startTestApp, type TestApp } from "../../support/test-app";

// A request that arrives after its page's tag was dropped must not be answered from a render
// that began before the drop: an action's own redirect would show the data it just replaced.

const PAGE = "/test/slow-story";
let version = "old";
let gate: Promise<void> | undefined;
let renders = 0;

const routes = await loadAppRoutes({
  routes: [route("test/slow-story", "test/slow-story.tsx")],
  files: {
    "test/slow-story.tsx": {
      module: { default: ({ data }: { data: { version: string } }) => <p id="version">{data.version}</p> },
      server: {
        cache: { maxAge: 120, tags: ["story"] },
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

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({}, { routes });
});
afterAll(() => app.close());

const shown = async () => /<p id="version">([^<]+)<\/p>/.exec((await send(Number(new URL(app.url).port), PAGE, { method: "GET" })).text())?.[1];

describe("a drop while the page renders on the same replica", () => {
  it("is not answered, to a request that came after it, from the render that began before it", async () => {
    let open = () => {};
    gate = new Promise((resolve) => (open = resolve));
    const before = shown();
    await until(() => renders === 1);
    version = "new";
    await app.deps.services.pageCache?.revalidateTag("story");
    // The action's redirect, while the old render still runs.
    const after = shown();
    await until(() => renders === 2, 1_000).catch(() => {});
    gate = undefined;
    open();
    expect(await before).toBe("old");
    expect(await after).toBe("new");
    expect(await shown()).toBe("new");
  });
});
