import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SESSION_COOKIE } from "#src/server/sessions/sessions";
import { startTestApp, type TestApp } from "../../support/test-app";

const SECRET = "first-secret-that-is-long-enough-000000";
const NEXT_SECRET = "second-secret-that-is-long-enough-11111";

/** Signs a cookie as Koa's cookies (keygrip) do, so a test can hand the server any value it likes. */
function signed(name: string, value: string, secret = SECRET): string {
  const sig = createHmac("sha1", secret).update(`${name}=${value}`).digest("base64").replace(/\/|\+|=/g, (c) => ({ "/": "_", "+": "-", "=": "" })[c] as string);
  return `${name}=${value}; ${name}.sig=${sig}`;
}
const sessionValue = (data: unknown) => Buffer.from(JSON.stringify(data)).toString("base64");

/** The cookies a response set, as a Cookie header to send back. */
const cookieHeader = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");

const visitsOf = (html: string) => Number(/<span id="visits">(\d+)<\/span>/.exec(html)?.[1]);
const nameOf = (html: string) => /<span id="session-name">([^<]*)<\/span>/.exec(html)?.[1];

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ ENABLE_DIAGNOSTIC_ROUTES: "true", SESSION_SECRET: SECRET });
});
afterAll(() => app.close());

const page = (cookie?: string, target = app) => fetch(`${target.url}/diagnostics/session`, { headers: cookie ? { Cookie: cookie } : {} });
const post = (body: string, cookie: string) =>
  fetch(`${app.url}/diagnostics/session`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
    body,
    redirect: "manual",
  });
const quietLogs = (target: TestApp, from: number) => target.logs.slice(from).filter((line) => line.level >= 40);

describe("the session", () => {
  it("counts visits in a signed, HttpOnly, SameSite=Lax cookie for the whole site, kept out of shared caches", async () => {
    const first = await page();
    expect(first.status).toBe(200);
    expect(visitsOf(await first.text())).toBe(1);
    const cookies = first.headers.getSetCookie();
    expect(cookies).toHaveLength(2);
    expect(cookies[0]).toMatch(new RegExp(`^${SESSION_COOKIE.replace(".", "\\.")}=[^;]+; path=/; expires=[^;]+; samesite=lax; httponly$`));
    expect(cookies[1]).toMatch(/^outpost\.session\.sig=/);
    expect(first.headers.get("cache-control")).toBe("private, no-store");
    expect(first.headers.get("vary")).toContain("Cookie");
    const second = await page(cookieHeader(first));
    expect(visitsOf(await second.text())).toBe(2);
  });

  it("stores a posted name and redirects 303 (post/redirect/get); intent=clear ends the session", async () => {
    const start = cookieHeader(await page());
    const named = await post("name=Ada", start);
    expect(named.status).toBe(303);
    expect(named.headers.get("location")).toBe("/diagnostics/session");
    const withName = cookieHeader(named);
    const shown = await (await page(withName)).text();
    expect(nameOf(shown)).toBe("Ada");
    expect(shown).toContain("Hello, Ada!");
    const cleared = await post("intent=clear", withName);
    expect(cleared.status).toBe(303);
    expect(cleared.headers.getSetCookie()[0]).toMatch(/^outpost\.session=; path=\/; expires=Thu, 01 Jan 1970/);
    const after = await (await page(cookieHeader(cleared))).text();
    expect(visitsOf(after)).toBe(1);
    expect(nameOf(after)).toBe("");
  });

  it("reads a tampered, garbage, expired, non-object or oversized cookie as an empty session: never a 500, never a warning", async () => {
    const before = app.logs.length;
    const good = cookieHeader(await page());
    // Another value under the old signature.
    const tampered = good.replace(/outpost\.session=[^;]+/, `outpost.session=${sessionValue({ visits: 99 })}`);
    const cookies = [
      tampered,
      "outpost.session=%%%not-base64; outpost.session.sig=garbage",
      signed(SESSION_COOKIE, "bm90IGpzb24"),
      signed(SESSION_COOKIE, sessionValue({ visits: 41, _expire: Date.now() - 1000, _maxAge: 1000 })),
      signed(SESSION_COOKIE, sessionValue([1, 2, 3])),
      signed(SESSION_COOKIE, sessionValue({ visits: 7, padding: "x".repeat(5000) })),
    ];
    for (const cookie of cookies) {
      const response = await page(cookie);
      expect(response.status).toBe(200);
      expect(visitsOf(await response.text())).toBe(1);
    }
    // A well-signed, current one is read: the cases above fail for their own reason only.
    expect(visitsOf(await (await page(signed(SESSION_COOKIE, sessionValue({ visits: 41 })))).text())).toBe(42);
    expect(quietLogs(app, before)).toEqual([]);
  });

  it("reads a session sent again under the same header without a second look, until it expires", async () => {
    const cookie = signed(SESSION_COOKIE, sessionValue({ visits: 9, _expire: Date.now() + 400, _maxAge: 400 }));
    expect(visitsOf(await (await page(cookie)).text())).toBe(10);
    expect(visitsOf(await (await page(cookie)).text())).toBe(10);
    // Remembered, but not past its expiry: the same header is an empty session then.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 500 });
    try {
      expect(visitsOf(await (await page(cookie)).text())).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("rotates secrets: the first signs, every one verifies", async () => {
    const old = cookieHeader(await page());
    const rotated = await startTestApp({ ENABLE_DIAGNOSTIC_ROUTES: "true", SESSION_SECRET: `${NEXT_SECRET},${SECRET}` });
    const replaced = await startTestApp({ ENABLE_DIAGNOSTIC_ROUTES: "true", SESSION_SECRET: NEXT_SECRET });
    try {
      const read = await page(old, rotated);
      expect(visitsOf(await read.text())).toBe(2);
      const resigned = cookieHeader(read);
      // Signed with the new first secret: a server that knows only that one reads it.
      expect(visitsOf(await (await page(resigned, replaced)).text())).toBe(3);
      expect(visitsOf(await (await page(old, replaced)).text())).toBe(1);
    } finally {
      await rotated.close();
      await replaced.close();
    }
  });

  it("marks the cookie Secure over HTTPS, as a trusted proxy reports it", async () => {
    const proxied = await startTestApp({ ENABLE_DIAGNOSTIC_ROUTES: "true", SESSION_SECRET: SECRET, TRUST_PROXY: "true" });
    try {
      const response = await fetch(`${proxied.url}/diagnostics/session`, { headers: { "X-Forwarded-Proto": "https" } });
      expect(response.status).toBe(200);
      for (const cookie of response.headers.getSetCookie()) expect(cookie).toMatch(/; secure; httponly$/);
      const plain = await fetch(`${proxied.url}/diagnostics/session`);
      for (const cookie of plain.headers.getSetCookie()) expect(cookie).not.toContain("secure");
    } finally {
      await proxied.close();
    }
  });

  it("without SESSION_SECRET signs with a random key and warns once, naming no secret and no cookie", async () => {
    const unset = await startTestApp({ ENABLE_DIAGNOSTIC_ROUTES: "true" });
    try {
      const response = await page(undefined, unset);
      const cookie = cookieHeader(response);
      expect(visitsOf(await (await page(cookie, unset)).text())).toBe(2);
      const warnings = unset.logs.filter((line) => line.level === 40);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]?.msg).toMatch(/SESSION_SECRET is not set.*end when the server restarts.*not shared between replicas/);
      const logged = JSON.stringify(unset.logs);
      for (const part of cookie.split("; ")) expect(logged).not.toContain(part.split("=")[1]);
    } finally {
      await unset.close();
    }
  });

  it("costs a page that never touches it nothing: no cookie written, cacheable as before", async () => {
    const cookie = cookieHeader(await page());
    const home = await fetch(`${app.url}/`, { headers: { Cookie: cookie } });
    expect(home.status).toBe(200);
    expect(home.headers.getSetCookie()).toEqual([]);
    expect(home.headers.get("cache-control")).toBe("no-cache");
    expect(home.headers.get("vary") ?? "").not.toContain("Cookie");
    await home.body?.cancel();
  });

  it("counts a client navigation's data request, which carries the same Set-Cookie", async () => {
    const cookie = cookieHeader(await page());
    const data = await fetch(`${app.url}/__data/diagnostics/session`, { headers: { Cookie: cookie, "X-Outpost-Build": app.deps.assets.manifest.buildId } });
    const body = (await data.json()) as { state: { data: Record<string, { visits: number }> } };
    expect(body.state.data["diagnostics/SessionPage"]?.visits).toBe(2);
    expect(data.headers.getSetCookie()[0]).toMatch(/^outpost\.session=/);
    expect(data.headers.get("cache-control")).toBe("no-store");
  });
});
