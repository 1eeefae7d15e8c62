import { describe, expect, it } from "vitest";
import type { RouteModule, RouteModules } from "#src/shared/routing/module";
import type { RouteState } from "#src/shared/routing/route-state";
import { type DataCause, routesToLoad, type ShouldRevalidateArgs } from "#src/client/navigation/should-revalidate";

const page = (): null => null;
const plain: Record<string, RouteModule> = {
  root: { default: page },
  layout: { default: page },
  first: { default: page },
  second: { default: page },
  item: { default: page },
};

function modulesWith(extra: Record<string, Partial<RouteModule>> = {}): RouteModules {
  return { get: (id) => ({ ...(plain[id] as RouteModule), ...extra[id] }) };
}

const chain = (ids: string[], params: Record<string, string> = {}) => ids.map((id) => ({ id, params }));
const state = (ids: string[], params: Record<string, string> = {}, extra: Partial<RouteState> = {}): RouteState => ({
  pattern: "/x",
  matches: chain(ids, params),
  data: Object.fromEntries(ids.map((id) => [id, { id }])),
  styles: [],
  ...extra,
});
const url = (path: string) => new URL(path, "http://app.test");

function decide(from: string, to: string, cause: DataCause, opts: { current?: RouteState; next?: string[]; params?: Record<string, string>; modules?: RouteModules } = {}) {
  return routesToLoad({
    current: opts.current ?? state(["root", "layout", "first"]),
    currentUrl: url(from),
    next: chain(opts.next ?? ["root", "layout", "second"], opts.params),
    nextUrl: url(to),
    cause,
    modules: opts.modules ?? modulesWith(),
  });
}

describe("which loaders a client navigation runs", () => {
  it("runs only the routes new to the page when moving between two children of one layout", () => {
    expect(decide("/l/first", "/l/second", "navigation")).toEqual(["second"]);
  });

  it("runs none for the same page and search (a fragment), all when the search changed", () => {
    expect(decide("/l/first", "/l/first#part", "navigation", { next: ["root", "layout", "first"] })).toEqual([]);
    expect(decide("/l/first", "/l/second?tab=2", "navigation")).toBeUndefined();
  });

  it("runs the routes whose params changed", () => {
    const current = state(["root", "item"], { id: "1" });
    expect(decide("/items/1", "/items/2", "navigation", { current, next: ["root", "item"], params: { id: "2" } })).toBeUndefined();
    expect(decide("/items/1", "/items/1", "navigation", { current, next: ["root", "item"], params: { id: "1" } })).toEqual([]);
  });

  it("runs every route below one that changed, even one of the same id", () => {
    const current = state(["root", "layout", "first"]);
    expect(decide("/a", "/b", "navigation", { current, next: ["root", "second", "first"] })).toEqual(["second", "first"]);
  });

  it("runs all of them after an action and on revalidate()", () => {
    expect(decide("/l/first", "/l/first", "action", { next: ["root", "layout", "first"] })).toBeUndefined();
    expect(decide("/l/first", "/l/first", "revalidate", { next: ["root", "layout", "first"] })).toBeUndefined();
  });

  it("runs all of them when the page shows an error, whose routes may lack data", () => {
    const current = state(["root", "layout", "first"], {}, { error: { boundaryId: "root", error: {} } });
    expect(decide("/l/first", "/l/second", "navigation", { current })).toBeUndefined();
  });

  it("lets a route's shouldRevalidate decide, with the platform's default and the URLs", () => {
    const seen: ShouldRevalidateArgs[] = [];
    const modules = modulesWith({
      root: { shouldRevalidate: () => false },
      layout: {
        shouldRevalidate: (args) => {
          seen.push(args);
          return true;
        },
      },
    });
    expect(decide("/l/first", "/l/second?tab=2", "navigation", { modules })).toEqual(["layout", "second"]);
    expect(seen[0]?.defaultShouldRevalidate).toBe(true);
    expect(seen[0]?.nextUrl.search).toBe("?tab=2");
    expect(seen[0]?.formMethod).toBeUndefined();
    expect(decide("/l/first", "/l/first", "action", { modules, next: ["root", "layout", "first"] })).toEqual(["layout", "first"]);
    expect(seen[1]?.formMethod).toBe("POST");
  });

  it("never asks shouldRevalidate about a route new to the page", () => {
    const modules = modulesWith({ second: { shouldRevalidate: () => false } });
    expect(decide("/l/first", "/l/second", "navigation", { modules })).toEqual(["second"]);
  });
});
