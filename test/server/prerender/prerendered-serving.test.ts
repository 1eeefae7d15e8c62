import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_HEADER } from "../../../src/shared/routing/data-request";
import { fixtureBuild } from "../../support/builds";
import { BROWSER_USER_AGENT } from "../../support/html";
import { send } from "../../support/raw-http";
import { type ServerProcess, startServerProcess } from "../../support/server-process";
import { readFileSync } from "node:fs";
import path from "node:path";

const DIAGNOSTICS = { ENABLE_DIAGNOSTIC_ROUTES: "true", SESSION_SECRET: "s".repeat(32) };
const builtAt = (html: string) => /<p id="built-at">([^<]+)<\/p>/.exec(html)?.[1];
const nonceOf = (csp: string | null) => /'nonce-([^']+)'/.exec(csp ?? "")?.[1];

describe("prerendered pages served from the build", () => {
  let replicas: ServerProcess[] = [];
  let buildId: string;

  beforeAll(async () => {
    buildId = (JSON.parse(readFileSync(path.join(fixtureBuild(), "manifest.json"), "utf8")) as { buildId: string }).buildId;
    replicas = await Promise.all([startServerProcess(DIAGNOSTICS), startServerProcess(DIAGNOSTICS)]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.stop()));
  });

  const page = async (server: ServerProcess, pathname: string, init?: RequestInit) => {
    const response = await fetch(server.url + pathname, { ...init, headers: { "User-Agent": BROWSER_USER_AGENT, ...init?.headers } });
    return { response, text: await response.text() };
  };

  it("shows one #built-at across requests, replicas and a restart of one build", async () => {
    const [a, b] = replicas as [ServerProcess, ServerProcess];
    const first = builtAt((await page(a, "/diagnostics/prerendered")).text);
    expect(first).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(builtAt((await page(a, "/diagnostics/prerendered")).text)).toBe(first);
    expect(builtAt((await page(b, "/diagnostics/prerendered")).text)).toBe(first);
    await a.stop();
    const restarted = await startServerProcess(DIAGNOSTICS);
    replicas[0] = restarted;
    expect(builtAt((await page(restarted, "/diagnostics/prerendered")).text)).toBe(first);
  }, 30_000);

  it("runs no loader at request time: a page with params, its document and its data answer", async () => {
    const server = replicas[1] as ServerProcess;
    const document = await page(server, "/static/first");
    expect(document.response.status).toBe(200);
    expect(document.text).toContain("Static first");
    const data = await fetch(`${server.url}/__data/static/second`, { headers: { [BUILD_HEADER]: buildId } });
    const answer = (await data.json()) as { kind: string; status: number; state: { data: Record<string, { slug: string }> } };
    expect(answer).toMatchObject({ kind: "state", status: 200 });
    expect(answer.state.data.Static?.slug).toBe("second");
    // The loader logs a line each time it runs: it ran in the build, never in the server.
    await page(server, "/static/first?any=query");
    expect(server.output.join("\n")).not.toContain("static loader ran");
  });

  it("answers with a fresh nonce per response, the security headers, ETag and 304, and HEAD", async () => {
    const server = replicas[1] as ServerProcess;
    const one = await page(server, "/diagnostics/prerendered");
    const two = await page(server, "/diagnostics/prerendered");
    const [nonceOne, nonceTwo] = [nonceOf(one.response.headers.get("content-security-policy")), nonceOf(two.response.headers.get("content-security-policy"))];
    expect(nonceOne).toBeTruthy();
    expect(nonceOne).not.toBe(nonceTwo);
    expect(one.text).toContain(`nonce="${nonceOne}"`);
    expect(two.text).toContain(`nonce="${nonceTwo}"`);
    expect(two.text).not.toContain(`nonce="${nonceOne}"`);
    expect(one.response.headers.get("x-content-type-options")).toBe("nosniff");
    const etag = one.response.headers.get("etag");
    expect(etag).toBeTruthy();
    expect(two.response.headers.get("etag")).toBe(etag);
    // Over plain HTTP: fetch adds Cache-Control: no-cache to a conditional request, which rules out a 304.
    const revalidated = await send(Number(new URL(server.url).port), "/diagnostics/prerendered", { method: "GET", headers: { "If-None-Match": etag as string } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.text()).toBe("");
    const head = await page(server, "/diagnostics/prerendered", { method: "HEAD" });
    expect(head.response.status).toBe(200);
    expect(head.text).toBe("");
    expect(head.response.headers.get("etag")).toBe(etag);
    expect(head.response.headers.get("content-type")).toBe("text/html; charset=utf-8");
  });

  it("carries this server's runtime config, not the build's", async () => {
    const text = (await page(replicas[1] as ServerProcess, "/diagnostics/prerendered")).text;
    expect(text).toContain('"diagnostics":true');
    const plain = await startServerProcess({ SESSION_SECRET: "s".repeat(32) });
    try {
      // Diagnostics off: the prerendered diagnostics page is not served (the app's not-found page).
      expect((await page(plain, "/diagnostics/prerendered")).response.status).toBe(404);
      const other = await page(plain, "/static/first");
      expect(other.text).toContain('"diagnostics":false');
      // The config's length changed: every inline script still carries this response's nonce.
      const nonce = nonceOf(other.response.headers.get("content-security-policy"));
      const scripts = [...other.text.matchAll(/<script[^>]* nonce="([^"]*)"/g)].map((found) => found[1]);
      expect(scripts.length).toBeGreaterThan(0);
      expect(new Set(scripts)).toEqual(new Set([nonce]));
    } finally {
      await plain.stop();
    }
  }, 30_000);

  it("says it is prerendered (Cache-Status), goes out with Cache-Control: no-cache, and is found under another spelling of its path", async () => {
    const server = replicas[1] as ServerProcess;
    const { response } = await page(server, "/diagnostics/prerendered");
    expect(response.headers.get("cache-status")).toBe("outpost; hit; detail=prerendered");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    const port = Number(new URL(server.url).port);
    for (const [asked, canonical] of [
      ["/diagnostics/prerendered/", "/diagnostics/prerendered"],
      ["//diagnostics/prerendered?a=1", "/diagnostics/prerendered?a=1"],
      ["/diagnostics//prerendered", "/diagnostics/prerendered"],
    ]) {
      for (const method of ["GET", "HEAD"]) {
        const answer = await send(port, asked as string, { method });
        expect(answer.status).toBe(308);
        expect(answer.headers.location).toBe(canonical);
      }
    }
    const data = await fetch(`${server.url}/__data/static/second/`, { headers: { [BUILD_HEADER]: buildId } });
    expect(data.headers.get("cache-status")).toBe("outpost; hit; detail=prerendered");
    expect(((await data.json()) as { state: { data: Record<string, { slug: string }> } }).state.data.Static?.slug).toBe("second");
    expect(server.output.join("\n")).not.toContain("static loader ran");
  });
});
