import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scrubBreadcrumb, scrubEvent, withoutQuery } from "#src/shared/sentry/private-urls";

describe("withoutQuery", () => {
  it("keeps origin and path only", () => {
    expect(withoutQuery("https://user:pw@shop.example/a/b?token=x#frag")).toBe("https://shop.example/a/b");
    expect(withoutQuery("/a?token=x")).toBe("/a");
    expect(withoutQuery("/a#x?y")).toBe("/a");
    expect(withoutQuery("not a url?token=x")).toBe("not a url");
  });

  it("never leaves a ? or # in anything", () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.webUrl({ withQueryParameters: true, withFragments: true })), (url) => {
      expect(withoutQuery(url)).not.toMatch(/[?#]/);
    }));
  });
});

describe("scrubEvent and scrubBreadcrumb", () => {
  it("strip the request, headers, breadcrumbs and spans of both SDKs' shapes", () => {
    const event = scrubEvent({
      request: { url: "https://shop.example/p?token=1", query_string: "token=1", headers: { Referer: "https://shop.example/d?token=2#f" } },
      breadcrumbs: [
        { category: "navigation", data: { from: "/a?token=3", to: "/b#token=4" } },
        { category: "fetch", message: "GET /__data/x?token=5", data: { url: "/__data/x?token=5", "http.query": "?token=5" } },
      ],
      contexts: { trace: { data: { "url.full": "https://shop.example/p?token=6", "http.request.header.referer": ["https://x.example/?token=7"], "url.query": "token=6" } } },
      spans: [{ description: "GET https://shop.example/__data/p?token=8", data: { "http.url": "https://shop.example/__data/p?token=8", "http.fragment": "x" } }],
    });
    expect(JSON.stringify(event)).not.toMatch(/token/);
    expect(event.request?.headers?.Referer).toBe("https://shop.example/d");
    expect(event.breadcrumbs?.[0]?.data).toEqual({ from: "/a", to: "/b" });
    expect(scrubBreadcrumb({ category: "xhr", data: { url: "/x?y=1" } }).data).toEqual({ url: "/x" });
  });
});
