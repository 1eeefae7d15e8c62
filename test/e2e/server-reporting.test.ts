import { describe, expect, it } from "vitest";
import { eventsWithMessage, exceptionOf, receivedItems, transactionsNamed } from "../support/envelopes";
import { serverMarkerArrived } from "../support/report-markers";
import { reportingServer } from "../support/reporting-stack";

const stack = reportingServer({});


describe("server error reporting through @sentry/node", () => {
  it("reports a throwing loader exactly once, with the route and a TypeScript stack", async () => {
    const response = await fetch(`${stack.server.url}/diagnostics/server-error?token=secret-value`);
    expect(response.status).toBe(500);
    expect(await response.text()).toContain('id="route-error"');
    await stack.ingest.waitFor(() => eventsWithMessage(stack.ingest, "diagnostic server error").length > 0, 10_000);
    await serverMarkerArrived(stack.server.url, stack.ingest);
    const events = eventsWithMessage(stack.ingest, "diagnostic server error");
    expect(events).toHaveLength(1);
    const event = events[0]?.payload as { transaction?: string; request?: Record<string, unknown> };
    expect(event.transaction).toBe("GET /diagnostics/server-error");
    expect(event.request).toMatchObject({ method: "GET" });
    expect(JSON.stringify(event)).not.toContain("secret-value");
    const frames = exceptionOf(event).stacktrace?.frames ?? [];
    expect(frames.some((frame) => String(frame.filename).endsWith("ServerErrorPage.server.ts"))).toBe(true);
    expect(events[0]?.envelope.request.url).toMatch(/^\/api\/42\/envelope\/(\?|$)/);
  });

  it("reports a component that throws during SSR exactly once", async () => {
    const response = await fetch(`${stack.server.url}/diagnostics/render-error`);
    expect(response.status).toBe(500);
    await response.text();
    await stack.ingest.waitFor(() => eventsWithMessage(stack.ingest, "diagnostic render error").length > 0, 10_000);
    await serverMarkerArrived(stack.server.url, stack.ingest);
    const events = eventsWithMessage(stack.ingest, "diagnostic render error");
    expect(events).toHaveLength(1);
    expect(events[0]?.payload.transaction).toBe("GET /diagnostics/render-error");
  });

  it("reports nothing for the redirect signal or the not-found page", async () => {
    const before = receivedItems(stack.ingest, "event").length;
    const redirect = await fetch(`${stack.server.url}/diagnostics/redirect`, { redirect: "manual" });
    expect(redirect.status).toBe(307);
    const missing = await fetch(`${stack.server.url}/no/such/page`);
    expect(missing.status).toBe(404);
    await missing.text();
    // A marker error sent afterwards: once it has arrived, anything sent before it has too.
    await (await fetch(`${stack.server.url}/diagnostics/server-error`)).text();
    await stack.ingest.waitFor(() => eventsWithMessage(stack.ingest, "diagnostic server error").length === 2, 10_000);
    const newEvents = receivedItems(stack.ingest, "event").slice(before);
    expect(newEvents.map((item) => exceptionOf(item.payload).value)).toEqual(["diagnostic server error"]);
  });

  it("gives each reported request its own trace, and adds no trace tags to documents without tracing", async () => {
    const traces = eventsWithMessage(stack.ingest, "diagnostic server error").map(
      (event) => (event.payload as { contexts?: { trace?: { trace_id?: string } } }).contexts?.trace?.trace_id,
    );
    expect(traces.length).toBeGreaterThanOrEqual(2);
    for (const trace of traces) expect(trace).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(traces).size).toBe(traces.length);
    const html = await (await fetch(`${stack.server.url}/`)).text();
    expect(html).not.toContain('name="sentry-trace"');
    expect(html).not.toContain('name="baggage"');
  });

  it("puts environment and release on events", () => {
    const [event] = eventsWithMessage(stack.ingest, "diagnostic render error");
    expect(event?.payload.environment).toBe("production");
    expect(event?.payload.release).toMatch(/^[0-9a-f]{12}$/);
  });
});

describe("server transactions with tracing on", () => {
  const traced = reportingServer({ SENTRY_TRACES_SAMPLE_RATE: "1" });

  it("drops the not-found page's transaction and keeps the home page's, named by pattern", async () => {
    await (await fetch(`${traced.server.url}/no/such/page`)).text();
    await (await fetch(`${traced.server.url}/healthz`)).text();
    await (await fetch(`${traced.server.url}/`)).text();
    await traced.ingest.waitFor(() => transactionsNamed(traced.ingest, "GET /").length > 0, 10_000);
    const names = receivedItems(traced.ingest, "transaction").map((item) => item.payload.transaction);
    expect(names).toEqual(["GET /"]);
  });

  it("carries the trace in the document's meta tags", async () => {
    const html = await (await fetch(`${traced.server.url}/`)).text();
    expect(html).toMatch(/<meta name="sentry-trace" content="[0-9a-f]{32}-[0-9a-f]{16}-1"\/>/);
    expect(html).toMatch(/<meta name="baggage" content="[^"]*sentry-transaction=GET%20%2F[,"]/);
  });
});
