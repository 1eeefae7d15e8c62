import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FakeIngest, startFakeIngest } from "../../../support/fake-ingest";
import { parseEnvelope } from "../../../support/envelopes";
import { send, startTunnel, type TunnelServer, until } from "../harness";
import { dsnOf, envelopeOf, forwardedAt, post, reportsAt, summed } from "./report-harness";

const INTERVAL_MS = 300;
let ingest: FakeIngest;
let server: TunnelServer | undefined;

beforeAll(async () => {
  ingest = await startFakeIngest();
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  ingest.reset();
  ingest.requests.length = 0;
});
afterAll(() => ingest.close());

const BOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const extensionError = { exception: { values: [{ type: "Error", value: "x", stacktrace: { frames: [{ abs_path: "chrome-extension://abc/content.js" }] } }] } };

describe("SENTRY_TUNNEL_FILTERS", () => {
  it("keeps filtered events here, answers them 200 as Relay does, forwards the rest, and reports them as event_processor", async () => {
    const dsn = dsnOf(ingest);
    server = await startTunnel({ allowedDsns: [dsn], filters: ["browser-extensions", "localhost", "web-crawlers"], clientReportIntervalMs: INTERVAL_MS });
    const extension = await post(server.port, envelopeOf(dsn, ["event", "attachment"], extensionError));
    const local = await post(server.port, envelopeOf(dsn, ["event"], { request: { url: "http://localhost:3000/" } }), { gzip: true });
    const crawler = await post(server.port, envelopeOf(dsn, ["transaction"], { request: { url: "https://shop.example/", headers: { "User-Agent": BOT } } }));
    const kept = envelopeOf(dsn, ["event", "session"], { request: { url: "https://shop.example/" } });
    const keptAnswer = await post(server.port, kept, { gzip: true });
    for (const answer of [extension, local, crawler]) {
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.text())).toEqual({ id: "9ec79c33ec9942ab8353589fcb2e04dc" });
    }
    expect(keptAnswer.status).toBe(200);
    expect(keptAnswer.text()).toBe('{"id":"fake"}');
    await until(() => reportsAt(ingest).length > 0, 3_000);
    // Only the unfiltered envelope went upstream, byte for byte as sent (gzip included).
    const forwarded = forwardedAt(ingest);
    expect(forwarded.map((request) => parseEnvelope(request).items.map((item) => item.type))).toEqual([["event", "session"]]);
    expect(summed(reportsAt(ingest))).toEqual([
      { reason: "event_processor", category: "attachment", quantity: 1 },
      { reason: "event_processor", category: "error", quantity: 2 },
      { reason: "event_processor", category: "transaction", quantity: 1 },
    ]);
  });

  it("reads nothing with no filter set: the same envelopes all go upstream", async () => {
    const dsn = dsnOf(ingest);
    server = await startTunnel({ allowedDsns: [dsn], clientReportIntervalMs: INTERVAL_MS });
    expect((await post(server.port, envelopeOf(dsn, ["event"], extensionError))).text()).toBe('{"id":"fake"}');
    expect((await post(server.port, envelopeOf(dsn, ["event"], { request: { url: "http://localhost/" } }))).text()).toBe('{"id":"fake"}');
    await new Promise((resolve) => setTimeout(resolve, INTERVAL_MS * 2));
    expect(forwardedAt(ingest)).toHaveLength(2);
    expect(reportsAt(ingest)).toEqual([]);
  });

  it("forwards a chunked (no Content-Length) unfiltered envelope whole after reading it for the filters", async () => {
    const dsn = dsnOf(ingest);
    server = await startTunnel({ allowedDsns: [dsn], filters: ["localhost"] });
    const body = envelopeOf(dsn, ["event", "attachment"], { request: { url: "https://shop.example/" }, padding: "y".repeat(100_000) });
    const answer = await send(server.port, "/monitoring?p=1", { body: [body.subarray(0, 1000), body.subarray(1000, 50_000), body.subarray(50_000)] });
    expect(answer.status).toBe(200);
    expect(forwardedAt(ingest).map((request) => request.body.equals(body))).toEqual([true]);
  });
});
