import type { Context } from "koa";
import { describe, expect, it } from "vitest";
import { answerData } from "#src/server/render/data-answer";
import { writeDocument } from "#src/server/render/document-writer";
import { answerResourceRoute } from "#src/server/render/resource-answer";
import { classify } from "#src/server/request/core/classify";
import { type ActionGuards, refusedByGuards } from "#src/server/request/guards";
import { choosePlan } from "#src/server/request/pipeline-switch";
import { refuseData, refuseDataNotTaken, refuseMethod, refuseNothing } from "#src/server/request/refusals";
import { resolveAction, resolveLoaders, resolveResource } from "#src/server/request/core/resolve";
import { pipelineRoutes, requestAt, uploads } from "./pipeline-routes";

const routes = pipelineRoutes();
const planFor = (method: string, url: string) => choosePlan(classify(requestAt(method, url), { routes, diagnostics: false }));

describe("choosePlan: the one switch", () => {
  it.each([
    // method, url, guarded, resolver, writer, refusal, taken (its body read), from storage (build or page cache)
    ["GET", "/form", false, resolveLoaders, writeDocument, refuseNothing, false, true],
    ["HEAD", "/form", false, resolveLoaders, writeDocument, refuseNothing, false, true],
    ["OPTIONS", "/form", false, resolveLoaders, writeDocument, refuseMethod, false, false],
    ["POST", "/form", true, resolveAction, writeDocument, refuseNothing, true, false],
    ["POST", "/plain", true, resolveLoaders, writeDocument, refuseMethod, false, false],
    ["POST", "/nowhere", true, resolveLoaders, writeDocument, refuseNothing, false, false],
    ["GET", "/__data/form", false, resolveLoaders, answerData, refuseData, false, true],
    ["POST", "/__data/form", true, resolveAction, answerData, refuseData, true, false],
    ["POST", "/__data/plain", true, resolveLoaders, answerData, refuseDataNotTaken, false, false],
    ["POST", "/__data/nowhere", true, resolveLoaders, answerData, refuseData, false, false],
    ["GET", "/api", false, resolveResource, answerResourceRoute, refuseNothing, false, false],
    ["HEAD", "/items", false, resolveResource, answerResourceRoute, refuseNothing, false, false],
    ["POST", "/api", true, resolveResource, answerResourceRoute, refuseNothing, true, false],
    ["PUT", "/items", true, resolveResource, answerResourceRoute, refuseNothing, true, false],
    ["DELETE", "/items", true, resolveResource, answerResourceRoute, refuseMethod, false, false],
  ] as const)("%s %s: guarded %s, its resolver, writer and refusal, whether a handler takes it and storage may answer it", (method, url, guarded, resolver, write, refuse, taken, fromStorage) => {
    const plan = planFor(method, url);
    expect(plan.taken).toBe(taken);
    expect(plan.fromStorage).toBe(fromStorage);
    expect(plan.guarded).toBe(guarded);
    expect(plan.resolver).toBe(resolver);
    expect(plan.write).toBe(write);
    expect(plan.refuse).toBe(refuse);
  });

  it("chooses among constant plans: choosing allocates nothing per request", () => {
    expect(planFor("GET", "/form")).toBe(planFor("GET", "/plain"));
    expect(planFor("GET", "/__data/form")).toBe(planFor("HEAD", "/__data/plain"));
    expect(planFor("POST", "/form")).not.toBe(planFor("GET", "/form"));
  });
});

describe("refuseMethod: the 405 a classification leads to", () => {
  const refused = (method: string, url: string) => {
    const headers: Record<string, string> = {};
    const ctx = { ...requestAt(method, url), set: (name: string, value: string) => (headers[name] = value), req: { complete: true } } as unknown as Context;
    const request = classify(ctx, { routes, diagnostics: false });
    return { refusedIt: choosePlan(request).refuse(ctx, request, "build"), allow: headers.Allow, status: (ctx as { status?: number }).status };
  };

  it("refuses a method the route does not take, naming those it does", () => {
    expect(refused("POST", "/plain")).toMatchObject({ refusedIt: true, allow: "GET, HEAD", status: 405 });
    expect(refused("DELETE", "/items")).toMatchObject({ refusedIt: true, allow: "GET, HEAD, PUT", status: 405 });
  });

  it("lets every method a route takes through", () => {
    expect(refused("POST", "/form").refusedIt).toBe(false);
    expect(refused("HEAD", "/items").refusedIt).toBe(false);
    expect(refused("POST", "/nowhere").refusedIt).toBe(false);
  });
});

describe("refusedByGuards: an action op's CSRF, then its body", () => {
  const run = async (method: string, url: string, crossSite: boolean) => {
    const calls: unknown[] = [];
    const guards: ActionGuards = {
      crossSite: () => {
        calls.push("csrf");
        return crossSite;
      },
      readBody: async (_ctx, policy) => {
        calls.push({ body: policy });
        return false;
      },
    };
    const ctx = requestAt(method, url);
    const request = classify(ctx, { routes, diagnostics: false });
    const refused = await refusedByGuards(ctx, request, choosePlan(request), guards);
    return { refused, calls };
  };

  it("reads the body with the route's upload policy once CSRF passed", async () => {
    expect(await run("POST", "/form", false)).toEqual({ refused: false, calls: ["csrf", { body: uploads }] });
    expect(await run("PUT", "/items", false)).toEqual({ refused: false, calls: ["csrf", { body: undefined }] });
  });

  it("stops at a cross-site request: its body is never read", async () => {
    expect(await run("POST", "/form", true)).toEqual({ refused: true, calls: ["csrf"] });
  });

  it("leaves the body unread when nothing takes it (a 405, the not-found page)", async () => {
    expect(await run("POST", "/plain", false)).toEqual({ refused: false, calls: ["csrf"] });
    expect(await run("POST", "/nowhere", false)).toEqual({ refused: false, calls: ["csrf"] });
  });
});
