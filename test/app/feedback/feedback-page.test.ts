import { afterEach, describe, expect, it } from "vitest";
import type { RequestRecord } from "#src/server/http/request-log";
import { recordingMonitoring } from "../../support/fake-monitoring";
import { until } from "../../support/raw-http";
import { startProductApp } from "../../support/product-app";
import type { TestApp } from "../../support/test-app";

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const EVENT_ID = "0123456789abcdef0123456789abcdef";
const FORM = { "content-type": "application/x-www-form-urlencoded" };

async function start(options: { reporting?: boolean; env?: Record<string, string> } = {}) {
  const recorded = recordingMonitoring();
  const records: RequestRecord[] = [];
  app = await startProductApp(
    { ENABLE_DIAGNOSTIC_ROUTES: "true", ...options.env },
    { ...(options.reporting === false ? {} : { monitoring: recorded.monitoring }), observeRequest: (record) => records.push(record) },
  );
  return { ...recorded, records };
}

async function post(path: string, body: string | Record<string, string>, headers: Record<string, string> = {}) {
  const response = await fetch(`${app?.url}${path}`, {
    method: "POST",
    headers: { ...FORM, ...headers },
    body: typeof body === "string" ? body : new URLSearchParams(body).toString(),
    redirect: "manual",
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describe("POST /feedback", () => {
  it("sends valid feedback linked to its event and answers 303 to the thanks", async () => {
    const { feedback } = await start();
    const response = await post("/feedback", { message: "  The page broke  ", name: "Ada", email: "", eventId: EVENT_ID });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/feedback?sent=1");
    expect(feedback).toEqual([{ message: "The page broke", name: "Ada", eventId: EVENT_ID }]);
    const thanks = await (await fetch(`${app?.url}/feedback?sent=1`)).text();
    expect(thanks).toContain('id="feedback-sent"');
  });

  it("answers 422 with the form again, values kept and each message by field", async () => {
    const { feedback } = await start();
    const response = await post("/feedback", { message: " ", name: "Ada <b>", email: "not-an-address", eventId: EVENT_ID });
    expect(response.status).toBe(422);
    expect(response.text).toMatch(/<form[^>]*action="\/feedback"/);
    expect(response.text).toMatch(/data-error-for="message"[^>]*>Please write a message/);
    expect(response.text).toMatch(/data-error-for="email"/);
    expect(response.text).not.toMatch(/data-error-for="name"/);
    expect(response.text).toContain('value="Ada &lt;b&gt;"');
    expect(response.text).toContain('value="not-an-address"');
    expect(response.text).toContain(`name="eventId" value="${EVENT_ID}"`);
    expect(feedback).toEqual([]);
  });

  it("refuses a foreign Origin or a cross-site request with 403", async () => {
    const { feedback } = await start();
    expect((await post("/feedback", { message: "hi" }, { origin: "https://evil.example" })).status).toBe(403);
    expect((await post("/feedback", { message: "hi" }, { "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect(feedback).toEqual([]);
  });

  it("answers 413 over BODY_MAX_BYTES and 415 for another type", async () => {
    await start({ env: { BODY_MAX_BYTES: "2048" } });
    expect((await post("/feedback", { message: "m".repeat(3000) })).status).toBe(413);
    expect((await post("/feedback", "message=hi", { "content-type": "text/plain" })).status).toBe(415);
  });

  it("answers 429 with Retry-After past 5 submissions a minute from one client; invalid ones do not count", async () => {
    await start();
    for (let i = 0; i < 3; i++) expect((await post("/feedback", { message: " " })).status).toBe(422);
    for (let i = 0; i < 5; i++) expect((await post("/feedback", { message: `#${i}` })).status).toBe(303);
    const limited = await post("/feedback", { message: "one more" });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // The visitor's text and the event it is about come back in the form, to send once allowed.
    const again = await post("/feedback", { message: "my long story & <details>", name: "Ann", eventId: EVENT_ID });
    expect(again.status).toBe(429);
    const html = again.text;
    expect(html).toContain("my long story &amp; &lt;details&gt;</textarea>");
    expect(html).toContain('value="Ann"');
    expect(html).toContain(`name="eventId" value="${EVENT_ID}"`);
  });

  it("answers 503 without error reporting, and the pages say feedback is unavailable", async () => {
    await start({ reporting: false });
    expect((await post("/feedback", { message: "hi" })).status).toBe(503);
    const page = await (await fetch(`${app?.url}/feedback`)).text();
    expect(page).toContain('id="feedback-unavailable"');
    const errorPage = await (await fetch(`${app?.url}/diagnostics/server-error`)).text();
    expect(errorPage).toContain("Feedback is unavailable");
  });

  it("is logged and measured by method and route pattern, never with its fields", async () => {
    const { records } = await start();
    await post("/feedback", { message: "secret words", email: "ada@example.org" });
    // The record is written when the response has closed, just after the client has it.
    await until(() => records.length > 0);
    expect(records).toContainEqual(expect.objectContaining({ method: "POST", route: "/feedback", status: 303 }));
    const logged = JSON.stringify(app?.logs);
    expect(logged).not.toContain("secret words");
    expect(logged).not.toContain("ada@example.org");
  });
});

describe("error pages", () => {
  it("carry the feedback form with the id of the event reported for a loader or render error", async () => {
    const { errors } = await start();
    for (const path of ["/diagnostics/server-error", "/diagnostics/render-error"]) {
      const before = errors.length;
      const response = await fetch(`${app?.url}${path}`);
      const html = await response.text();
      expect(response.status).toBe(500);
      expect(errors.length).toBe(before + 1);
      const eventId = errors.length.toString(16).padStart(32, "0");
      expect(html).toMatch(/<form[^>]*action="\/feedback"/);
      expect(html, path).toContain(`name="eventId" value="${eventId}"`);
    }
  });
});

describe("route actions", () => {
  it("re-render the page with the action's data and status, and the loaders' fresh data", async () => {
    await start();
    const invalid = await post("/diagnostics/form", { note: "" });
    expect(invalid.status).toBe(422);
    expect(invalid.text).toMatch(/data-error-for="note"/);
    const before = Number(/saved (\d+)/.exec(invalid.text)?.[1]);
    const saved = await post("/diagnostics/form", { note: "hello", intent: "save" });
    expect(saved.status).toBe(200);
    expect(saved.text).toContain("saved: hello");
    expect(saved.text).toContain(`saved ${before + 1}`);
  });

  it("answer a redirect with 303, whatever status the action gave it", async () => {
    await start();
    const response = await post("/diagnostics/form", { note: "x", intent: "redirect" });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/diagnostics/form?redirected=1");
  });

  it("give the error page with 500 and one report when they throw", async () => {
    const { errors } = await start();
    const response = await post("/diagnostics/form", { note: "x", intent: "fail" });
    expect(response.status).toBe(500);
    expect(errors).toHaveLength(1);
    expect(response.text).toContain(`name="eventId" value="${"1".padStart(32, "0")}"`);
  });

  it("are 405 with Allow where the route has none", async () => {
    await start();
    const response = await post("/", { a: "b" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
    const put = await fetch(`${app?.url}/feedback`, { method: "PUT" });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, HEAD, POST");
  });
});
