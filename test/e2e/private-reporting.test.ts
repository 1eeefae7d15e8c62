import { describe, expect, it } from "vitest";
import { eventsWithMessage, receivedItems, transactionsNamed } from "../support/envelopes";
import { reportingServer } from "../support/reporting-stack";

// The server's reports over real HTTP to a fake ingest, tracing on: what reaches Sentry and which ids pages show.
const stack = reportingServer({ SENTRY_TRACES_SAMPLE_RATE: "1" });

const eventIdOf = (html: string) => /"eventId":"([0-9a-f]{32})"/.exec(html)?.[1];

describe("what server reports carry", () => {
  it("no query string or fragment from the Referer or the URL, in the event or the transaction", async () => {
    const response = await fetch(`${stack.server.url}/diagnostics/server-error?token=SECRET-QUERY`, {
      headers: { Referer: `${stack.server.url}/diagnostics?token=SECRET-REFERER#SECRET-FRAGMENT` },
    });
    expect(response.status).toBe(500);
    await response.text();
    await stack.ingest.waitFor(() => transactionsNamed(stack.ingest, "GET /diagnostics/server-error").length > 0 && eventsWithMessage(stack.ingest, "diagnostic server error").length > 0, 10_000);
    const [event] = eventsWithMessage(stack.ingest, "diagnostic server error");
    const headers = (event?.payload.request as { headers?: Record<string, string> } | undefined)?.headers ?? {};
    expect(headers.referer).toBe(`${stack.server.url}/diagnostics`);
    const [transaction] = transactionsNamed(stack.ingest, "GET /diagnostics/server-error");
    for (const sent of [event, transaction]) expect(JSON.stringify(sent?.payload)).not.toMatch(/SECRET/);
  });

  it("each error page shows the id of an event the ingest received, the same error twice in a row included", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const html = await (await fetch(`${stack.server.url}/diagnostics/server-error`)).text();
      const id = eventIdOf(html);
      expect(id).toMatch(/^[0-9a-f]{32}$/);
      ids.push(id as string);
    }
    const received = () => new Set(receivedItems(stack.ingest, "event").map((item) => item.payload.event_id));
    await stack.ingest.waitFor(() => ids.every((id) => received().has(id)), 10_000);
  });
});
