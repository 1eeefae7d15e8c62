import { _default, coerce, int, object, string } from "zod/mini";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PageCacheResult } from "#src/server/page-cache/page-cache";
import { revalidatePath } from "#src/server/routing/revalidation";
import { route } from "#src/shared/routing/config";
import type { SearchSchema } from "#src/shared/routing/search-schema";
import { loadAppRoutes } from "../../support/app-routes";
import { type ClientResponse, send } from "../../support/raw-http";
import { startTestApp, type TestApp } from "../../support/test-app";

// What a hostile client sends must never reach another visitor through a kept page: everything
// the render reads is in the key (origin, path, raw query), or makes the page personal (cookies).

const results: PageCacheResult[] = [];
let app: TestApp;
let port: number;

const Shown = ({ data }: { data: Record<string, string> }) => <pre id="shown">{JSON.stringify(data)}</pre>;

/** A query schema that counts its runs: `topic` required, one of a-z. */
let validations = 0;
const countedSchema: SearchSchema<{ topic: string }> = {
  "~standard": {
    version: 1,
    vendor: "test",
    validate: (value) => {
      validations++;
      const topic = (value as { topic?: unknown }).topic;
      return typeof topic === "string" && /^[a-z]+$/.test(topic) ? { value: { topic } } : { issues: [{ message: "a topic is a-z", path: ["topic"] }] };
    },
  },
};

const routes = await loadAppRoutes({
  routes: [
    route("test/keyed", "test/keyed.tsx"),
    route("test/listing", "test/listing.tsx"),
    route("test/lang/:lang", "test/lang.tsx"),
    route("test/greets", "test/greets.tsx"),
    route("test/sets-cookie", "test/sets-cookie.tsx"),
    route("test/lists-headers", "test/lists-headers.tsx"),
    route("test/spelled/:id?", "test/spelled.tsx"),
    route("test/counted", "test/counted.tsx"),
  ],
  files: {
    "test/keyed.tsx": {
      module: { default: Shown },
      server: { cache: { maxAge: 60 }, load: ({ url }) => ({ canonical: url.href, id: `${Math.random()}` }) },
    },
    "test/listing.tsx": {
      module: { default: Shown },
      server: {
        cache: { maxAge: 60 },
        searchParams: object({ page: _default(coerce.number().check(int()), 1), sort: _default(string(), "asc") }),
        // The "Next" link keeps the query as the page sees it.
        load: ({ url }) => ({ next: `?${url.searchParams}&next=1`, id: `${Math.random()}` }),
      },
    },
    "test/lang.tsx": {
      module: { default: Shown },
      server: { cache: { maxAge: 60, tags: ({ params }) => [`lang:${params.lang}`] }, load: ({ params }) => ({ lang: params.lang as string, id: `${Math.random()}` }) },
    },
    "test/greets.tsx": {
      module: { default: Shown },
      server: { cache: { maxAge: 60 }, load: ({ header }) => ({ hello: /who=(\w+)/.exec(header("cookie"))?.[1] ?? "nobody", id: `${Math.random()}` }) },
    },
    "test/lists-headers.tsx": {
      module: { default: Shown },
      server: { cache: { maxAge: 60 }, load: ({ headers }) => ({ names: Object.keys({ ...headers }).sort().join(" "), id: `${Math.random()}` }) },
    },
    "test/sets-cookie.tsx": {
      module: { default: Shown },
      server: {
        cache: { maxAge: 60 },
        middleware: [({ response }) => response.setHeader("Set-Cookie", "seen=1; Path=/")],
        load: () => ({ id: `${Math.random()}` }),
      },
    },
    "test/spelled.tsx": {
      module: { default: Shown },
      server: { cache: { maxAge: 60 }, load: ({ url }) => ({ path: url.pathname, id: `${Math.random()}` }) },
    },
    "test/counted.tsx": {
      module: { default: Shown },
      server: {
        cache: { maxAge: 60, tags: ({ search }) => [`topic:${(search as { topic: string }).topic}`] },
        searchParams: countedSchema,
        load: ({ search }) => ({ topic: (search as { topic: string }).topic, id: `${Math.random()}` }),
      },
    },
  },
});

beforeAll(async () => {
  app = await startTestApp({ TRUST_PROXY: "true" }, { routes, observePageCache: (result) => results.push(result) });
  port = Number(new URL(app.url).port);
});
afterAll(() => app.close());

const get = (path: string, headers: Record<string, string> = {}) => send(port, path, { method: "GET", headers });
const shown = (response: ClientResponse) => JSON.parse((/<pre id="shown">([^<]+)<\/pre>/.exec(response.text())?.[1] ?? "null").replaceAll("&quot;", '"').replaceAll("&amp;", "&"));

describe("the key of a kept page", () => {
  it("holds the origin: a Host or X-Forwarded-Host/-Proto (TRUST_PROXY) never reaches another host's visitors", async () => {
    const poisoned = await get("/test/keyed", { Host: "evil.example" });
    expect(shown(poisoned).canonical).toBe("http://evil.example/test/keyed");
    const forwarded = await get("/test/keyed", { "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https" });
    expect(shown(forwarded).canonical).toBe("https://evil.example/test/keyed");
    const visitor = await get("/test/keyed", { Host: `127.0.0.1:${port}` });
    expect(shown(visitor).canonical).toBe(`http://127.0.0.1:${port}/test/keyed`);
    // Each origin has its own entry: the visitor's is kept for the visitor's origin.
    expect(shown(await get("/test/keyed", { Host: `127.0.0.1:${port}` })).id).toBe(shown(visitor).id);
  });

  it("holds the raw query the page sees, not only what its schema parses", async () => {
    const poisoned = await get("/test/listing?ref=PWNED&page=1");
    expect(shown(poisoned).next).toContain("PWNED");
    const visitor = await get("/test/listing?page=1&sort=asc");
    expect(shown(visitor).next).toBe("?page=1&sort=asc&next=1");
    expect(visitor.headers["cache-status"]).toBe("outpost; fwd=miss; stored");
  });
});

describe("a kept page's query", () => {
  it("is parsed by its schema once per request: for its tags and for its loader alike", async () => {
    validations = 0;
    const miss = await get("/test/counted?topic=cats");
    expect(miss.headers["cache-status"]).toBe("outpost; fwd=miss; stored");
    expect(shown(miss).topic).toBe("cats");
    expect(validations).toBe(1);
    validations = 0;
    const refused = await get("/test/counted?topic=C4TS");
    expect(refused.status).toBe(400);
    expect(validations).toBe(1);
  });
});

describe("a kept page's tags function", () => {
  it("renders the page uncached, warned once for the route, when its tags are bad for an odd URL", async () => {
    for (const lang of ["%C3%A9", "a%20b", "%00"]) {
      const answer = await get(`/test/lang/${lang}`);
      expect(answer.status).toBe(200);
      expect(shown(answer).lang).toBe(decodeURIComponent(lang));
      expect(answer.headers["cache-status"]).toBe("outpost; fwd=bypass; detail=bad-tags");
    }
    const warnings = app.logs.filter((line) => line.level === 40 && line.route === "/test/lang/:lang");
    expect(warnings).toHaveLength(1);
    expect(String(warnings[0]?.msg)).toContain("cache.tags");
    expect(app.logs.filter((line) => line.level >= 50)).toEqual([]);
    // A good tag keeps the page as declared.
    results.length = 0;
    await get("/test/lang/en");
    await get("/test/lang/en");
    expect(results).toEqual(["miss", "hit"]);
  });
});

describe("a kept page that depends on who asks", () => {
  it("reading the cookie header through header() makes it personal: private, no-store, never served to another visitor", async () => {
    results.length = 0;
    const alice = await get("/test/greets", { Cookie: "who=alice" });
    expect(shown(alice).hello).toBe("alice");
    expect(alice.headers["cache-control"]).toBe("private, no-store");
    const stranger = await get("/test/greets");
    expect(shown(stranger).hello).toBe("nobody");
    expect(results).toEqual(["bypass", "bypass"]);
  });

  it("reading every header (headers) makes it personal when a cookie is among them", async () => {
    results.length = 0;
    const withCookie = await get("/test/lists-headers", { Cookie: "who=alice" });
    expect(shown(withCookie).names).toContain("cookie");
    expect(withCookie.headers["cache-control"]).toBe("private, no-store");
    const without = await get("/test/lists-headers");
    expect(shown(without).names).not.toContain("cookie");
    expect(results).toEqual(["bypass", "miss"]);
  });

  it("a Set-Cookie set by its middleware through response.setHeader makes it private, no-store and never kept", async () => {
    results.length = 0;
    const first = await get("/test/sets-cookie");
    const second = await get("/test/sets-cookie");
    for (const answer of [first, second]) {
      expect(answer.headers["set-cookie"]).toEqual(["seen=1; Path=/"]);
      expect(answer.headers["cache-control"]).toBe("private, no-store");
    }
    expect(shown(second).id).not.toBe(shown(first).id);
    expect(results).toEqual(["bypass", "bypass"]);
  });
});

describe("a kept page under another spelling of its path", () => {
  it("redirects /x/, //x and /x//y to the path the router matches alike (308, query kept): one entry, which revalidatePath drops", async () => {
    for (const [asked, canonical] of [
      ["/test/spelled/", "/test/spelled"],
      ["//test/spelled?a=1", "/test/spelled?a=1"],
      ["/test//spelled/1/", "/test/spelled/1"],
      ["/test/spelled//1", "/test/spelled/1"],
    ]) {
      const answer = await get(asked as string);
      expect(answer.status).toBe(308);
      expect(answer.headers.location).toBe(canonical);
    }
    const kept = shown(await get("/test/spelled/1"));
    expect(shown(await get("/test/spelled/1")).id).toBe(kept.id);
    await revalidatePath("/test/spelled/1/");
    expect(shown(await get("/test/spelled/1")).id).not.toBe(kept.id);
  });

  it("keeps a data request's answer under its own spelling, and revalidatePath drops every spelling", async () => {
    const headers = { "X-Outpost-Build": app.deps.assets.manifest.buildId };
    const data = async (path: string) => JSON.parse((await get(`/__data${path}`, headers)).text()).state.data["test/spelled"] as { id: string; path: string };
    const plain = await data("/test/spelled/2");
    const spelled = await data("/test/spelled/2/");
    expect(spelled.path).toBe("/test/spelled/2/");
    expect((await data("/test/spelled/2/")).id).toBe(spelled.id);
    await revalidatePath("/test/spelled/2");
    expect((await data("/test/spelled/2")).id).not.toBe(plain.id);
    expect((await data("/test/spelled/2/")).id).not.toBe(spelled.id);
  });
});
