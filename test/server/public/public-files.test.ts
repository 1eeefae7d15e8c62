import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordingMonitoring } from "../../support/fake-monitoring";
import { DIST, ROOT } from "../../support/paths";
import { send, until } from "../../support/raw-http";
import { startTestApp, type TestApp } from "../../support/test-app";

let app: TestApp;
let port: number;
let folder: string;
let outside: string;
const reported = recordingMonitoring();
// Large enough that no response is over before its client leaves.
const LARGE = Buffer.alloc(4 * 1024 * 1024, "x");

beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), "outpost-public-"));
  outside = mkdtempSync(path.join(tmpdir(), "outpost-secret-"));
  writeFileSync(path.join(folder, "robots.txt"), "User-agent: *\n");
  mkdirSync(path.join(folder, ".well-known"));
  writeFileSync(path.join(folder, ".well-known", "security.txt"), "Contact: mailto:security@example.org\n");
  mkdirSync(path.join(folder, "docs"));
  writeFileSync(path.join(folder, "docs", "guide.json"), '{"ok":true}');
  writeFileSync(path.join(outside, "secret.txt"), "do not serve");
  symlinkSync(path.join(outside, "secret.txt"), path.join(folder, "linked.txt"));
  symlinkSync(outside, path.join(folder, "linked-dir"));
  writeFileSync(path.join(folder, "large.txt"), LARGE);
  writeFileSync(path.join(folder, "100%.txt"), "a hundred per cent");
  writeFileSync(path.join(folder, "a%41.txt"), "a percent-four-one");
  writeFileSync(path.join(folder, ".env"), "SECRET=do not serve");
  mkdirSync(path.join(folder, ".git"));
  writeFileSync(path.join(folder, ".git", "config"), "do not serve");
  writeFileSync(path.join(folder, "docs", ".secret"), "do not serve");
  writeFileSync(path.join(folder, ".well-known", ".hidden"), "do not serve");
  app = await startTestApp({}, { publicDir: folder, monitoring: reported.monitoring });
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

  it("serves files to GET and HEAD only; other methods reach the pages", async () => {
    const head = await send(port, "/robots.txt", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    const post = await send(port, "/robots.txt", { method: "POST", headers: { "content-type": "application/json" }, body: Buffer.from("{}") });
    expect(post.status).toBe(404);
  });
});

/** Requests `target` on a raw socket and closes it at the first bytes of the answer, as a crawler closing early does. */
function leaveEarly(target: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`));
    socket.once("data", () => {
      socket.destroy();
      resolve();
    });
    socket.once("error", reject);
  });
}

describe("a visitor who leaves while a public file is sent", () => {
  it("is a closed response, logged at info and counted, never an error or a report (100 in a row)", async () => {
    const before = app.logs.length;
    for (let i = 0; i < 100; i++) await leaveEarly("/large.txt");
    const closed = () => app.logs.slice(before).filter((line) => line.msg === "request" && line.route === "public");
    await until(() => closed().length === 100, 10_000);
    // One more exchange afterwards: anything the left ones still had to say has been said.
    expect((await get("/robots.txt")).status).toBe(200);
    await until(() => closed().length === 101);
    expect(closed().filter((line) => line.aborted === true).length).toBe(100);
    expect(app.logs.slice(before).filter((line) => line.level >= 50)).toEqual([]);
    expect(reported.errors).toEqual([]);
  });
});

describe("public file names", () => {
  it("are percent-decoded once: /100%25.txt is 100%.txt, /a%2541.txt is a%41.txt and never aA.txt", async () => {
    const hundred = await get("/100%25.txt");
    expect(hundred.status).toBe(200);
    expect(hundred.text()).toBe("a hundred per cent");
    const percent = await get("/a%2541.txt");
    expect(percent.status).toBe(200);
    expect(percent.text()).toBe("a percent-four-one");
  });

  it.each([
    ["/.env"],
    ["/%2eenv"],
    ["/%2Eenv"],
    ["/.git/config"],
    ["/docs/.secret"],
    ["/.well-known/.hidden"],
  ])("leave dotfiles and dot-folders out, .well-known/ alone served: %s is 404", async (target) => {
    const response = await get(target);
    expect(response.status).toBe(404);
    expect(response.text()).not.toContain("do not serve");
  });

  it.each([
    ["a bare percent", "/100%.txt"],
    ["a truncated escape", "/a%4"],
    ["a name decoded twice", "/a%252541.txt"],
    ["a missing name once decoded", "/b%2541.txt"],
    ["an encoded NUL", "/%00"],
    ["an encoded slash", "/docs%2Fguide.json"],
    ["an encoded backslash", "/..%5C..%5Cetc%5Cpasswd"],
    ["encoded dots", "/%2e%2e/%2e%2e/etc/passwd"],
    ["overlong UTF-8 dots", "/%C0%AE%C0%AE/%C0%AE%C0%AE/etc/passwd"],
    ["an invalid UTF-8 sequence", "/%FF%FE.txt"],
    ["a huge name", `/${"a".repeat(8000)}.txt`],
    ["a huge encoded name", `/${"%41".repeat(2500)}.txt`],
  ])("answer %s with 404 or 400, never a file-system error or a server path", async (_what, target) => {
    const before = app.logs.length;
    const response = await get(target);
    expect([400, 404]).toContain(response.status);
    const body = response.text();
    for (const secret of [folder, ROOT, "ENOENT", "ENAMETOOLONG", "EISDIR", "EACCES", "stat '", "failed to decode"]) expect(body).not.toContain(secret);
    expect(app.logs.slice(before).filter((line) => line.level >= 50)).toEqual([]);
  });
});

describe("the shipped app's public files", () => {
  it("are copied by the production build, robots.txt and favicon.ico included", () => {
    for (const file of ["robots.txt", "favicon.ico"]) {
      expect(readFileSync(path.join(DIST, "public", file))).toEqual(readFileSync(path.join(ROOT, "src/app/public", file)));
    }
  });

  it("include the favicon the document links", async () => {
    const served = await startTestApp();
    try {
      const html = await (await fetch(`${served.url}/`)).text();
      expect(html).toContain('<link rel="icon" href="/favicon.ico"/>');
      const icon = await fetch(`${served.url}/favicon.ico`);
      expect(icon.status).toBe(200);
      expect(icon.headers.get("content-type")).toBe("image/vnd.microsoft.icon");
    } finally {
      await served.close();
    }
  });
});
