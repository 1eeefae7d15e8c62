import { describe, expect, it, vi } from "vitest";
import { createClientRoutes } from "#src/client/navigation/client-routes";
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
