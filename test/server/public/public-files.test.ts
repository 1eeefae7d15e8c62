import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { leaveEarly, send, until } from "../../support/raw-http";
import { startTestApp, type TestApp } from "../../support/test-app";

let app: TestApp;
let port: number;
let folder: string;
let outside: string;

beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), "outpost-public-"));
  outside = mkdtempSync(path.join(tmpdir(), "outpost-secret-"));
  writeFileSync(path.join(folder, "robots.txt"), "User-agent: *\n");
  mkdirSync(path.join(folder, ".well-known"));
  writeFileSync(path.join(folder, ".well-known", "security.txt"), "Contact: mailto:security@example.org\n");
  mkdirSync(path.join(folder, "docs"));
  writeFileSync(path.join(folder, "docs", "guide.json"), '{"ok":true}');
  writeFileSync(path.join(folder, "100%.txt"), "a hundred per cent");
  writeFileSync(path.join(folder, "a%41.txt"), "percent four one");
  writeFileSync(path.join(folder, "aA.txt"), "decoded twice");
  writeFileSync(path.join(folder, ".env"), "SECRET=do not serve");
  mkdirSync(path.join(folder, ".git"));
  writeFileSync(path.join(folder, ".git", "config"), "do not serve");
  writeFileSync(path.join(folder, "docs", ".hidden"), "do not serve");
  writeFileSync(path.join(folder, "big.bin"), Buffer.alloc(4 * 1024 * 1024, 7));
  writeFileSync(path.join(outside, "secret.txt"), "do not serve");
  symlinkSync(path.join(outside, "secret.txt"), path.join(folder, "linked.txt"));
  symlinkSync(outside, path.join(folder, "linked-dir"));
  app = await startTestApp({}, { publicDir: folder });
  port = Number(new URL(app.url).port);
});
afterAll(async () => {
  await app.close();
  rmSync(folder, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const get = (target: string, headers: Record<string, string> = {}) => send(port, target, { method: "GET", headers });

describe("the app's public folder", () => {
  it("serves its files at the site's root with their type, validators and a moderate Cache-Control", async () => {
    const robots = await get("/robots.txt");
    expect(robots.status).toBe(200);
    expect(robots.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(robots.text()).toBe("User-agent: *\n");
    expect(robots.headers.etag).toMatch(/^W\/"/);
    expect(robots.headers["last-modified"]).toBeTruthy();
    expect(robots.headers["cache-control"]).toBe("max-age=86400");
    expect((await get("/.well-known/security.txt")).text()).toContain("Contact:");
    const json = await get("/docs/guide.json");
    expect(json.headers["content-type"]).toBe("application/json; charset=utf-8");
  });

  it("answers If-None-Match and If-Modified-Since with 304 and no body", async () => {
    const first = await get("/robots.txt");
    const byEtag = await get("/robots.txt", { "If-None-Match": first.headers.etag as string });
    expect(byEtag.status).toBe(304);
    expect(byEtag.body.length).toBe(0);
    const byDate = await get("/robots.txt", { "If-Modified-Since": first.headers["last-modified"] as string });
    expect(byDate.status).toBe(304);
  });

  it.each([
    ["a directory", "/docs"],
    ["a directory with a slash", "/docs/"],
    ["an encoded traversal", "/..%2fetc%2fpasswd"],
    ["a traversal", "/docs/../../etc/passwd"],
    ["an encoded NUL", "/robots.txt%00.html"],
    ["a bad escape", "/robots%zz.txt"],
    ["a symbolic link to a file outside", "/linked.txt"],
    ["a file under a linked folder", "/linked-dir/secret.txt"],
  ])("answers %s with the not-found page", async (_what, target) => {
    const response = await get(target);
    expect(response.status).toBe(404);
    expect(response.text()).not.toContain("do not serve");
  });

  it("decodes a name once: %25 is a percent sign, never the start of another escape", async () => {
    expect((await get("/100%25.txt")).text()).toBe("a hundred per cent");
    expect((await get("/a%2541.txt")).text()).toBe("percent four one");
    // One file, one URL: an encoded slash is no separator.
    expect((await get("/docs%2Fguide.json")).status).toBe(404);
    expect((await get("/docs/guide%2Ejson")).status).toBe(200);
    const missing = await get("/b%2541.txt");
    expect(missing.status).toBe(404);
  });

  it.each(["/.env", "/%2eenv", "/%2Eenv", "/.git/config", "/docs/.hidden", "/.well-known/../.env"])(
    "leaves the dotfile %s out (404), as it does every dot-name but .well-known/",
    async (target) => {
      const response = await get(target);
      expect(response.status).toBe(404);
      expect(response.text()).not.toContain("do not serve");
    },
  );

  it.each(["/b%2541.txt", "/robots%zz.txt", "/%E0%A4%A.txt", "/%C0%AE%C0%AE/etc/passwd", "/x%00.txt", `/${"%25".repeat(2000)}.txt`])(
    "never shows a file-system error or the server's path for %s",
    async (target) => {
      const response = await get(target);
      expect([400, 404]).toContain(response.status);
      expect(response.text()).not.toMatch(/ENOENT|no such file|EINVAL|\/tmp\/|\/work\//);
      expect(app.logs.filter((line) => line.level >= 50)).toEqual([]);
    },
  );

  it("answers HEAD with GET's status and headers, without the body", async () => {
    for (const target of ["/robots.txt", "/big.bin", "/.well-known/security.txt"]) {
      const got = await get(target);
      const head = await send(port, target, { method: "HEAD" });
      expect(head.status).toBe(got.status);
      expect(head.body.length).toBe(0);
      for (const name of ["content-type", "content-length", "etag", "last-modified", "cache-control"]) {
        expect(head.headers[name], `${target} ${name}`).toBe(got.headers[name]);
      }
    }
  });

  it("takes a client that leaves mid-file as the client's doing: no error logged, an aborted request line", async () => {
    const before = app.logs.length;
    for (let i = 0; i < 20; i++) await leaveEarly(port, "/big.bin");
    await until(() => app.logs.slice(before).filter((line) => line.msg === "request" && line.aborted === true).length === 20);
    expect(app.logs.slice(before).filter((line) => line.level >= 40)).toEqual([]);
  });

  it("serves files to GET and HEAD only; other methods reach the pages", async () => {
    const head = await send(port, "/robots.txt", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    const post = await send(port, "/robots.txt", { method: "POST", headers: { "content-type": "application/json" }, body: Buffer.from("{}") });
    expect(post.status).toBe(404);
  });
});

describe("a public file where a route or the platform answers", () => {
  it.each([
    ["healthz", "the health probe /healthz"],
    ["readyz", "the health probe /readyz"],
    ["assets/app.js", "the hashed assets under /assets/"],
    ["monitoring", "the Sentry tunnel at /monitoring"],
    ["__data/x.json", "the data endpoint's (/__data)"],
    ["test/search", "the route /test/search (test/search)"],
  ])("stops start-up: %s, naming %s", async (file, named) => {
    const clashing = mkdtempSync(path.join(tmpdir(), "outpost-public-clash-"));
    try {
      mkdirSync(path.dirname(path.join(clashing, file)), { recursive: true });
      writeFileSync(path.join(clashing, file), "x");
      await expect(startTestApp({}, { publicDir: clashing })).rejects.toThrow(`public file /${file}`);
      await expect(startTestApp({}, { publicDir: clashing })).rejects.toThrow(named);
    } finally {
      rmSync(clashing, { recursive: true, force: true });
    }
  });

  it("serves a file at one value of a route with parameters, and says so at start", async () => {
    const folder = mkdtempSync(path.join(tmpdir(), "outpost-public-param-"));
    try {
      mkdirSync(path.join(folder, "test", "items"), { recursive: true });
      writeFileSync(path.join(folder, "test", "items", "special.txt"), "a file");
      const served = await startTestApp({}, { publicDir: folder });
      try {
        const warning = served.logs.find((line) => line.level === 40 && line.msg.startsWith("public file"));
        expect(warning?.msg).toBe("public file /test/items/special.txt would hide the route /test/items/:id (test/item) at that one URL");
        expect(await (await fetch(`${served.url}/test/items/special.txt`)).text()).toBe("a file");
        expect((await fetch(`${served.url}/test/items/7`)).status).toBe(200);
      } finally {
        await served.close();
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
