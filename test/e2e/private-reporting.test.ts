import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventsWithMessage, receivedItems, transactionsNamed } from "../support/envelopes";
import { type FakeIngest, startFakeIngest } from "../support/fake-ingest";
import { type ServerProcess, startServerProcess } from "../support/server-process";

// The server's reports over real HTTP to a fake ingest, tracing on: what reaches Sentry and which ids pages show.
let ingest: FakeIngest;
let server: ServerProcess;

beforeAll(async () => {
  ingest = await startFakeIngest();
  server = await startServerProcess({
    SENTRY_DSN: `http://publickey@127.0.0.1:${ingest.port}/42`,
    SENTRY_TRACES_SAMPLE_RATE: "1",
    ENABLE_DIAGNOSTIC_ROUTES: "true",
  });
});
afterAll(async () => {
  await server?.stop();
  await ingest?.close();
});

const eventIdOf = (html: string) => /"eventId":"([0-9a-f]{32})"/.exec(html)?.[1];

describe("what server reports carry", () => {
  it("no query string or fragment from the Referer or the URL, in the event or the transaction", async () => {
    const response = await fetch(`${server.url}/diagnostics/server-error?token=SECRET-QUERY`, {
      headers: { Referer: `${server.url}/diagnostics?token=SECRET-REFERER#SECRET-FRAGMENT` },
    });
    expect(response.status).toBe(500);
    await response.text();
    await ingest.waitFor(() => transactionsNamed(ingest, "GET /diagnostics/server-error").length > 0 && eventsWithMessage(ingest, "diagnostic server error").length > 0, 10_000);
    const [event] = eventsWithMessage(ingest, "diagnostic server error");
    const headers = (event?.payload.request as { headers?: Record<string, string> } | undefined)?.headers ?? {};
    expect(headers.referer).toBe(`${server.url}/diagnostics`);
    const [transaction] = transactionsNamed(ingest, "GET /diagnostics/server-error");
    for (const sent of [event, transaction]) expect(JSON.stringify(sent?.payload)).not.toMatch(/SECRET/);
  });

  it("each error page shows the id of an event the ingest received, the same error twice in a row included", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const html = await (await fetch(`${server.url}/diagnostics/server-error`)).text();
      const id = eventIdOf(html);
      expect(id).toMatch(/^[0-9a-f]{32}$/);
      ids.push(id as string);
    }
    const received = () => new Set(receivedItems(ingest, "event").map((item) => item.payload.event_id));
    await ingest.waitFor(() => ids.every((id) => received().has(id)), 10_000);
  });
});
