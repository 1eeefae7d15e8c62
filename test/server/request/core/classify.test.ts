import { describe, expect, it } from "vitest";
import { classify } from "#src/server/request/core/classify";
import { LOADERS_ONLY, NOT_TAKEN } from "#src/server/request/core/route-kind";
import { action, GET, load, pipelineRoutes, requestAt } from "../pipeline-routes";

const routes = pipelineRoutes();
const classified = (method: string, url: string) => classify(requestAt(method, url), { routes, diagnostics: false });

describe("classify: format × op", () => {
  it.each([
    ["GET", "/form", "document", "read"],
    ["HEAD", "/form", "document", "read"],
    ["OPTIONS", "/form", "document", "read"],
    ["POST", "/form", "document", "action"],
    ["GET", "/__data/form", "data", "read"],
    ["POST", "/__data/form", "data", "action"],
    ["GET", "/api", "resource", "read"],
    ["DELETE", "/api", "resource", "action"],
    ["PUT", "/items", "resource", "action"],
    ["PROPFIND", "/plain", "document", "action"],
  ])("%s %s is a %s %s", (method, url, format, op) => {
    expect(classified(method, url)).toMatchObject({ format, op });
  });

  it("names the code each method runs: loaders only, the action or a resource handler", () => {
    expect(classified("GET", "/form").handler).toBe(LOADERS_ONLY);
    expect(classified("POST", "/form").handler).toBe(action);
    expect(classified("POST", "/__data/form").handler).toBe(action);
    expect(classified("GET", "/api").handler).toBe(load);
    expect(classified("POST", "/api").handler).toBe(action);
    expect(classified("GET", "/items").handler).toBe(GET);
  });

  it("runs GET's code for a HEAD, on a page and on a resource route", () => {
    expect(classified("HEAD", "/form").handler).toBe(LOADERS_ONLY);
    expect(classified("HEAD", "/api").handler).toBe(load);
    expect(classified("HEAD", "/items").handler).toBe(GET);
  });

  it("marks a method the route does not take (405) as not taken, with the methods it does", () => {
    expect(classified("POST", "/plain")).toMatchObject({ handler: NOT_TAKEN, route: { allow: "GET, HEAD" } });
    expect(classified("OPTIONS", "/form")).toMatchObject({ handler: NOT_TAKEN, route: { allow: "GET, HEAD, POST" } });
    expect(classified("DELETE", "/items")).toMatchObject({ handler: NOT_TAKEN, route: { allow: "GET, HEAD, PUT" } });
  });

  it("answers an unmatched path with the not-found page, which a POST sees too (no action)", () => {
    expect(classified("GET", "/nowhere")).toMatchObject({ format: "document", op: "read", matched: null, handler: LOADERS_ONLY });
    expect(classified("POST", "/nowhere")).toMatchObject({ format: "document", op: "action", matched: null, handler: LOADERS_ONLY });
  });

  it("takes a data request's page path from behind its prefix, and its `_routes` out of its query", () => {
    expect(classified("GET", "/__data")).toMatchObject({ format: "data", pagePath: "/" });
    const ctx = requestAt("GET", "/__data/form?q=1&_routes=form");
    const request = classify(ctx, { routes, diagnostics: false });
    expect(request).toMatchObject({ format: "data", pagePath: "/form", requested: { ok: true, only: new Set(["form"]) } });
    expect(request.matched?.pattern).toBe("/form");
    expect(ctx.querystring).toBe("q=1");
    expect(classified("GET", "/__data/form?_routes=nope").requested).toMatchObject({ ok: false });
  });

  it("keeps the page path of a document and takes no `_routes` out of its query", () => {
    const ctx = requestAt("GET", "/form?_routes=form");
    expect(classify(ctx, { routes, diagnostics: false })).toMatchObject({ format: "document", pagePath: "/form", requested: undefined });
    expect(ctx.querystring).toBe("_routes=form");
  });
});
