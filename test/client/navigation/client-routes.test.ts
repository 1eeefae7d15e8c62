import { describe, expect, it, vi } from "vitest";
import { createClientRoutes } from "#src/client/navigation/core/client-routes";
import { ChunkLoadError } from "#src/client/recovery/import-with-retry";
import type { RouteModule } from "#src/shared/routing/module";
import { defineApp, index } from "#src/shared/routing/config";

const config = defineApp({ root: "root/Root.tsx", notFound: "NotFound.tsx", routes: [index("Home.tsx")] });
const moduleWith = (title: string): RouteModule => ({ default: () => null, head: () => ({ title }) });

describe("createClientRoutes: a route module replaced as its chunk runs again (Fast Refresh)", () => {
  it("serves the new module from then on and tells its subscribers", async () => {
    const routes = createClientRoutes(config, { Home: () => Promise.resolve(moduleWith("old")) });
    await routes.load(["Home"]);
    const listener = vi.fn();
    routes.subscribe(listener);
    const before = routes.revision();

    expect(routes.replace("Home", moduleWith("new"))).toBe(true);
    expect(routes.modules.get("Home").head?.({ data: undefined, params: {} })).toEqual({ title: "new" });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(routes.revision()).toBe(before + 1);
    await routes.load(["Home"]); // loaded already: the new module stays
    expect(routes.modules.get("Home").head?.({ data: undefined, params: {} })).toEqual({ title: "new" });
  });

  it("ignores a module of no route it has", () => {
    const routes = createClientRoutes(config, { Home: () => Promise.resolve(moduleWith("old")) });
    const listener = vi.fn();
    routes.subscribe(listener);
    expect(routes.replace("Elsewhere", moduleWith("new"))).toBe(false);
    expect(listener).not.toHaveBeenCalled();
  });
});

describe("createClientRoutes: a route chunk that fails to fetch (a deploy removed it on the replica that answered)", () => {
  const failing = (failures: number) => {
    let calls = 0;
    const importer = vi.fn(async () => {
      calls += 1;
      if (calls <= failures) throw new TypeError("Failed to fetch dynamically imported module: /assets/chunks/Home-X.js");
      return moduleWith("home");
    });
    return importer;
  };

  it("is fetched again after each delay, and loads once an attempt succeeds", async () => {
    const importer = failing(2);
    const routes = createClientRoutes(config, { Home: importer }, [1, 1]);
    await routes.load(["Home"]);
    expect(importer).toHaveBeenCalledTimes(3);
    expect(routes.modules.get("Home").head?.({ data: undefined, params: {} })).toEqual({ title: "home" });
  });

  it("rejects with a ChunkLoadError naming the browser's error once its retries are spent, and may be loaded again later", async () => {
    const importer = failing(3);
    const routes = createClientRoutes(config, { Home: importer }, [1, 1]);
    const failed = await routes.load(["Home"]).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ChunkLoadError);
    expect((failed as Error).message).toContain("Failed to fetch dynamically imported module");
    expect(importer).toHaveBeenCalledTimes(3);
    await routes.load(["Home"]);
    expect(importer).toHaveBeenCalledTimes(4);
  });

  it("does not retry a module that threw while it ran", async () => {
    const importer = vi.fn(async (): Promise<RouteModule> => {
      throw new RangeError("the page's module threw");
    });
    const routes = createClientRoutes(config, { Home: importer }, [1, 1]);
    await expect(routes.load(["Home"])).rejects.toThrow(RangeError);
    expect(importer).toHaveBeenCalledTimes(1);
  });
});
