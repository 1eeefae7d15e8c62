import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PageCacheResult } from "#src/server/page-cache/page-cache";
import { route } from "#src/shared/routing/config";
import { loadAppRoutes } from "../../support/app-routes";
import { send } from "../../support/raw-http";
import { startTestApp, type TestApp } from "../../support/test-app";

// A comment stored by a visitor and shown on a page shared by everybody: its markup must never run.
// The nonce it carries is the one kept and public pages were rendered with before (build id and URL),
// which anybody could compute; a fresh CSP nonce is never that, and the comment's is never rewritten.

const KEPT = "/test/kept-comment";
const PUBLIC = "/test/public-comment";
let app: TestApp;
const results: PageCacheResult[] = [];
/** The nonce an attacker computes for a URL: sha256 of the public build id and the URL (the former sharedPageNonce). */
const predictable = (url: string) => createHash("sha256").update(`${app.deps.assets.manifest.buildId}\0${url}`).digest("base64").slice(0, 22);
const comment = (url: string) => `<script nonce="${predictable(url)}">window.pwned=1</script>`;

const Comment = ({ data }: { data: { comment: string; id: string } }) => (
  <>
    <p id="render-id">{data.id}</p>
    {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the page shows stored HTML as it is, which the attack needs. */}
    <div id="comment" dangerouslySetInnerHTML={{ __html: data.comment }} />
  </>
);

const routes = await loadAppRoutes({
  routes: [route("test/kept-comment", "test/kept-comment.tsx"), route("test/public-comment", "test/public-comment.tsx")],
  files: {
    "test/kept-comment.tsx": {
      module: { default: Comment },
      server: { cache: { maxAge: 60 }, load: () => ({ comment: comment(KEPT), id: `${Math.random()}` }) },
    },
    "test/public-comment.tsx": {
      module: { default: Comment },
      server: { headers: { "Cache-Control": "public, max-age=60" }, load: () => ({ comment: comment(PUBLIC), id: "public" }) },
    },
  },
});

beforeAll(async () => {
  app = await startTestApp({}, { routes, observePageCache: (result) => results.push(result) });
});
afterAll(() => app.close());

const cspNonce = (response: Response) => /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
const scriptNonces = (html: string) => [...html.matchAll(/<script[^>]* nonce="([^"]*)"/g)].map((found) => found[1]);
const get = async (path: string) => {
  const response = await fetch(`${app.url}${path}`);
  return { response, html: await response.text() };
};

describe("the nonces of a page shared by everybody", () => {
  it("a kept page: the comment's computed nonce is left as it is, never the CSP's; the page's own scripts carry the fresh one", async () => {
    const answers = [await get(KEPT), await get(KEPT)];
    expect(results).toEqual(["miss", "hit"]);
    const [miss, hit] = answers.map(({ response }) => cspNonce(response));
    expect(miss).not.toBe(hit);
    for (const { response, html } of answers) {
      const fresh = cspNonce(response) as string;
      expect(fresh).toHaveLength(24);
      expect(fresh).not.toBe(predictable(KEPT));
      expect(html).toContain(comment(KEPT));
      const nonces = scriptNonces(html);
      // The page's own scripts (recovery, payload, entry) and the comment's.
      expect(nonces.filter((nonce) => nonce === fresh).length).toBeGreaterThan(0);
      expect(nonces.filter((nonce) => nonce !== fresh)).toEqual([predictable(KEPT)]);
    }
  });

  it("a public page: a fresh nonce per response, the comment's left as it is, one ETag and a 304 without a CSP", async () => {
    const first = await get(PUBLIC);
    const second = await get(PUBLIC);
    expect(first.response.headers.get("cache-control")).toBe("public, max-age=60");
    const nonces = [cspNonce(first.response), cspNonce(second.response)];
    expect(nonces[0]).not.toBe(nonces[1]);
    for (const [index, { html }] of [first, second].entries()) {
      expect(nonces[index]).not.toBe(predictable(PUBLIC));
      expect(html).toContain(comment(PUBLIC));
      expect(scriptNonces(html).filter((nonce) => nonce !== nonces[index])).toEqual([predictable(PUBLIC)]);
    }
    // The same page but for its nonce: the same validator, so a browser's copy revalidates with 304.
    const etag = first.response.headers.get("etag") as string;
    expect(etag).toBeTruthy();
    expect(second.response.headers.get("etag")).toBe(etag);
    const current = await send(Number(new URL(app.url).port), PUBLIC, { method: "GET", headers: { "If-None-Match": etag } });
    expect(current.status).toBe(304);
    expect(current.headers["content-security-policy"]).toBeUndefined();
  });
});

describe("Cache-Status (RFC 9211)", () => {
  it("says whether a kept page's answer was stored, a hit, or rendered for this visitor only", async () => {
    const path = `${KEPT}?status=1`;
    const miss = await get(path);
    expect(miss.response.headers.get("cache-status")).toBe("outpost; fwd=miss; stored");
    const hit = await get(path);
    expect(hit.response.headers.get("cache-status")).toBe("outpost; hit");
    const head = await fetch(`${app.url}${path}`, { method: "HEAD" });
    expect(head.headers.get("cache-status")).toBe("outpost; hit");
    const data = await fetch(`${app.url}/__data${path}`, { headers: { "X-Outpost-Build": app.deps.assets.manifest.buildId } });
    expect(data.status).toBe(200);
    expect(data.headers.get("cache-status")).toBe("outpost; fwd=miss; stored");
  });
});
