import { afterAll, beforeAll, expect, it } from "vitest";
import { CookieJar } from "../../support/cookie-jar";
import { startTestApp, type TestApp } from "../../support/test-app";

const OLD_SECRET = "old-secret-that-is-long-enough-0000000000";
const NEW_SECRET = "new-secret-that-is-long-enough-1111111111";

let before: TestApp;
let rotated: TestApp;
beforeAll(async () => {
  before = await startTestApp({ ENABLE_DIAGNOSTIC_ROUTES: "true", SESSION_SECRET: OLD_SECRET });
  rotated = await startTestApp({ ENABLE_DIAGNOSTIC_ROUTES: "true", SESSION_SECRET: `${NEW_SECRET},${OLD_SECRET}` });
});
afterAll(() => Promise.all([before.close(), rotated.close()]));

const guarded = (app: TestApp, jar: CookieJar) => fetch(`${app.url}/diagnostics/guarded/inner`, { headers: { Cookie: jar.header }, redirect: "manual" });

it("keeps a visitor signed in across a secret rotation and a browser restart: the session is re-issued whole, with its own attributes, under the new key", async () => {
  const jar = new CookieJar();
  const named = await fetch(`${before.url}/diagnostics/session`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: "name=Ada",
    redirect: "manual",
  });
  jar.take(named);
  expect((await guarded(before, jar)).status).toBe(200);

  // The guarded page only reads the session; the rotated server re-issues it.
  const read = await guarded(rotated, jar);
  expect(read.status).toBe(200);
  jar.take(read);
  for (const name of ["outpost.session", "outpost.session.sig"]) {
    expect(jar.attributesOf(name)).toMatch(/path=\/; expires=[^;]+; samesite=lax; httponly/);
  }

  jar.restart();
  const afterRestart = await guarded(rotated, jar);
  expect(afterRestart.status).toBe(200);
  expect(await afterRestart.text()).toContain("Ada");

  // Signed with the new key alone: a server that no longer knows the old one still reads it.
  const replaced = await startTestApp({ ENABLE_DIAGNOSTIC_ROUTES: "true", SESSION_SECRET: NEW_SECRET });
  try {
    expect((await guarded(replaced, jar)).status).toBe(200);
  } finally {
    await replaced.close();
  }
});
