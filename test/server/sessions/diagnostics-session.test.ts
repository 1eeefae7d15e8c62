import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CookieJar } from "../../support/cookie-jar";
import { redisUp, sessionStores } from "../../support/redis-app";
import { startTestApp, type TestApp } from "../../support/test-app";

const SECRET = "a-diagnostics-secret-long-enough-4444444";
const flashOf = (html: string) => /<p id="session-flash"[^>]*>([^<]*)<\/p>/.exec(html)?.[1];
const nameOf = (html: string) => /<span id="session-name">([^<]*)<\/span>/.exec(html)?.[1];

const { stores, stop } = sessionStores();
afterAll(stop);

// The contract other tests rely on: intent=flash stores a message, the page shows it once in #session-flash.
describe.each(stores)("/diagnostics/session in the $store store", ({ store, env }) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ ENABLE_DIAGNOSTIC_ROUTES: "true", SESSION_SECRET: SECRET, REDIS_TIMEOUT_MS: "5000", ...(await env()) });
    if (store === "redis") await redisUp(app);
  });
  afterAll(() => app.close());

  const page = async (jar: CookieJar, method = "GET") => {
    const response = await fetch(`${app.url}/diagnostics/session`, { method, headers: { Cookie: jar.header } });
    expect(response.status).toBe(200);
    jar.take(response);
    return response.text();
  };
  const post = async (jar: CookieJar, fields: Record<string, string>) => {
    const response = await fetch(`${app.url}/diagnostics/session`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: jar.header },
      body: new URLSearchParams(fields),
      redirect: "manual",
    });
    jar.take(response);
    return response;
  };

  it("flashes a posted message (intent=flash), shown once in #session-flash after the 303", async () => {
    const jar = new CookieJar();
    await page(jar);
    const flashed = await post(jar, { intent: "flash", message: "Saved <3 & done" });
    expect(flashed.status).toBe(303);
    expect(flashed.headers.get("location")).toBe("/diagnostics/session");
    expect(flashOf(await page(jar))).toBe("Saved &lt;3 &amp; done");
    expect(flashOf(await page(jar))).toBeUndefined();
  });

  it("refuses intent=flash without a message: 400 naming the field", async () => {
    const response = await post(new CookieJar(), { intent: "flash", message: "  " });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("intent=flash needs a message field");
  });

  it("keeps the other intents: a name, then intent=clear", async () => {
    const jar = new CookieJar();
    expect((await post(jar, { name: "Ada" })).status).toBe(303);
    expect(nameOf(await page(jar))).toBe("Ada");
    expect((await post(jar, { intent: "clear" })).status).toBe(303);
    expect(nameOf(await page(jar))).toBe("");
  });

  it("answers HEAD as GET, without a body", async () => {
    const jar = new CookieJar();
    await post(jar, { name: "Ada" });
    expect(await page(jar, "HEAD")).toBe("");
    expect(nameOf(await page(jar))).toBe("Ada");
  });

  it("leaves a flash to the GET after a HEAD (a link checker, a preview bot): the HEAD shows nothing", async () => {
    const jar = new CookieJar();
    await post(jar, { intent: "flash", message: "Still here" });
    expect(await page(jar, "HEAD")).toBe("");
    expect(await page(jar, "HEAD")).toBe("");
    expect(flashOf(await page(jar))).toBe("Still here");
    expect(flashOf(await page(jar))).toBeUndefined();
  });
});
