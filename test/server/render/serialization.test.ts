import vm from "node:vm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { PAYLOAD_GLOBAL, type DocumentPayload } from "#src/shared/document/payload";
import { serializeForScript } from "#src/shared/document/serialize";
import { startTestApp, type TestApp } from "../../support/test-app";
import { EVIL, testRoutes } from "../../support/test-routes";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ SENTRY_RELEASE: EVIL, SENTRY_ENVIRONMENT: "\u2028staging" }, { routes: testRoutes });
});
afterAll(() => app.close());

/** Runs every inline script as the browser would and returns the payload it assigned. */
function runInlineScripts(html: string): { window: Record<string, DocumentPayload>; count: number } {
  const window: Record<string, DocumentPayload> = {};
  // The recovery script's only use of the browser at run time: its error listener.
  Object.defineProperty(window, "addEventListener", { value: () => {} });
  const inline = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)]
    .map((match) => match[1] as string)
    .filter((body) => body.trim() !== "");
  for (const body of inline) vm.runInNewContext(body, { window, document: {}, history: {} });
  return { window, count: inline.length };
}

it("keeps hydration data and runtime config inside their script", async () => {
  const html = await (await fetch(`${app.url}/test/evil`)).text();
  expect(html).not.toContain("<script>alert(1)</script>");
  const { window, count } = runInlineScripts(html);
  expect(count).toBe(1);
  const payload = window[PAYLOAD_GLOBAL] as DocumentPayload;
  expect(payload.state.data).toEqual({ "test/evil": { text: EVIL } });
  expect(payload.config.release).toBe(EVIL);
  expect(payload.config.environment).toBe("\u2028staging");
  // The page itself shows the text escaped as text, not markup.
  expect(html).toContain("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
});

it("escapes every character that could end the script or break parsing", () => {
  const serialized = serializeForScript({ text: EVIL });
  expect(serialized).not.toMatch(/[<>&\u2028\u2029]/);
  expect(JSON.parse(serialized)).toEqual({ text: EVIL });
});
