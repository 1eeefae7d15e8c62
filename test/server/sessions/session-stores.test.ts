import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CookieJar } from "../../support/cookie-jar";
import { startTestApp, type TestApp } from "../../support/test-app";
import type { SessionShown } from "../../support/test-routes";

const SECRET = "a-session-secret-that-is-long-enough-000";

const stores = [{ name: "cookie", env: {} as Record<string, string> }];

describe.each(stores)("the session in the $name store", ({ env }) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ SESSION_SECRET: SECRET, ...env });
  });
  afterAll(() => app.close());

  const shown = async (jar: CookieJar): Promise<SessionShown> => {
    const response = await fetch(`${app.url}/test/session`, { headers: { Cookie: jar.header } });
    expect(response.status).toBe(200);
    jar.take(response);
    const html = await response.text();
    return JSON.parse(/<pre id="session">([^<]*)<\/pre>/.exec(html)?.[1]?.replaceAll("&quot;", '"') ?? "null") as SessionShown;
  };
  const post = async (jar: CookieJar, fields: Record<string, string>) => {
    const response = await fetch(`${app.url}/test/session`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: jar.header },
      body: new URLSearchParams(fields),
      redirect: "manual",
    });
    jar.take(response);
    return response;
  };

  it("gives a flashed value to the next request that reads it (to each of its reads), then never again", async () => {
    const jar = new CookieJar();
    expect((await post(jar, { notice: "Note saved", user: "ada" })).status).toBe(303);
    expect(await shown(jar)).toMatchObject({ notice: "Note saved", again: "Note saved", user: "ada" });
    expect(await shown(jar)).toMatchObject({ notice: null, again: null, user: "ada" });
  });

  it("regenerates: the same values under a new cookie", async () => {
    const jar = new CookieJar();
    await post(jar, { size: "10" });
    const before = jar.header;
    await post(jar, { user: "grace" });
    expect(jar.header).not.toBe(before);
    expect(await shown(jar)).toMatchObject({ user: "grace", padding: 10 });
  });
});
