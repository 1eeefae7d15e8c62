import type { AddressInfo } from "node:net";
import { brotliCompressSync, brotliDecompressSync, deflateSync, gunzipSync, gzipSync, inflateSync } from "node:zlib";
import fc from "fast-check";
import Koa from "koa";
import { afterAll, beforeAll, expect, it } from "vitest";
import { healthChecks } from "#src/server/http/health";
import { createTunnel, type Tunnel } from "#src/server/tunnel";
import { probeEventLoop } from "../../../support/event-loop-probe";
import { type FakeIngest, type FakeResponse, startFakeIngest } from "../../../support/fake-ingest";
import { open, type PostOptions, responseOf, until } from "../harness";
import { spoolDir, spoolOptions } from "./spool-harness";

/**
 * The spool's guarantees under random ingest failures, odd envelopes and restarts: every
 * envelope the tunnel acknowledged reaches the ingest; one reaches it more than once only where
 * the tunnel guide allows it (docs/guides/tunnel.md) (the ingest took it but its answer was lost, or a restart cut a delivery);
 * the event loop never blocks 100 ms; /healthz answers throughout.
 */

type Behaviour =
  | { kind: "refuse" | "reset" | "stall" | "200" | "200-lost" }
  | { kind: "5xx"; status: number }
  | { kind: "429"; headers: Record<string, string> };

interface EnvelopeSpec {
  encoding: "none" | "identity" | "gzip" | "br" | "deflate";
  sentAt: "now" | "past" | "far-future" | "absent" | "not-a-date" | "nested";
  itemType: "event" | "transaction" | "session" | "attachment";
  padding: number;
  invalidUtf8: boolean;
}

interface Phase {
  behaviour: Behaviour;
  envelopes: EnvelopeSpec[];
  waitMs: number;
  restartAfter: boolean;
}

const RATE_LIMIT_HEADERS: Record<string, string>[] = [
  {},
  { "retry-after": "0" },
  { "retry-after": "1" },
  { "retry-after": new Date(Date.now() - 5_000).toUTCString() },
  { "x-sentry-rate-limits": "1:error:organization" },
  { "x-sentry-rate-limits": "0:error:organization" },
  { "x-sentry-rate-limits": "1:transaction;session:organization" },
  { "x-sentry-rate-limits": "1::project" },
];

const behaviour: fc.Arbitrary<Behaviour> = fc.oneof(
  fc.constantFrom<Behaviour>({ kind: "refuse" }, { kind: "reset" }, { kind: "stall" }, { kind: "200" }, { kind: "200-lost" }),
  fc.constantFrom(500, 502, 503, 504).map((status): Behaviour => ({ kind: "5xx", status })),
  fc.constantFrom(...RATE_LIMIT_HEADERS).map((headers): Behaviour => ({ kind: "429", headers })),
);

const envelopeSpec: fc.Arbitrary<EnvelopeSpec> = fc.record({
  encoding: fc.constantFrom("none", "identity", "gzip", "br", "deflate"),
  sentAt: fc.constantFrom("now", "past", "far-future", "absent", "not-a-date", "nested"),
  itemType: fc.constantFrom("event", "transaction", "session", "attachment"),
  padding: fc.integer({ min: 0, max: 4_000 }),
  invalidUtf8: fc.boolean(),
});

const phase: fc.Arbitrary<Phase> = fc.record({
  behaviour,
  envelopes: fc.array(envelopeSpec, { minLength: 1, maxLength: 3 }),
  waitMs: fc.integer({ min: 50, max: 250 }),
  restartAfter: fc.boolean(),
});

let fake: FakeIngest;
let dsn: string;
beforeAll(async () => {
  fake = await startFakeIngest();
  dsn = `http://abc123@127.0.0.1:${fake.port}/42`;
});
afterAll(() => fake.close());

let sequence = 0;

/** A request given up (destroyed) after `timeoutMs`. */
async function timedSend(port: number, path: string, options: PostOptions, timeoutMs: number) {
  const req = open(port, path, options);
  const response = responseOf(req);
  const timer = setTimeout(() => req.destroy(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs);
  req.end(options.body);
  try {
    return await response;
  } finally {
    clearTimeout(timer);
  }
}

function buildEnvelope(spec: EnvelopeSpec, tag: string): { body: Buffer; headers: Record<string, string> } {
  const sentAt = {
    now: new Date().toISOString(),
    past: new Date(Date.now() - 3_600_000).toISOString(),
    "far-future": "+275760-09-13T00:00:00.000Z",
    absent: undefined,
    "not-a-date": "yesterday",
    nested: new Date().toISOString(),
  }[spec.sentAt];
  const header: Record<string, unknown> = { event_id: tag.padStart(32, "0").slice(-32), dsn };
  if (spec.sentAt === "nested") header.trace = { sent_at: sentAt };
  if (sentAt !== undefined) header.sent_at = sentAt;
  const headerLine = Buffer.from(JSON.stringify({ ...header, user: spec.invalidUtf8 ? "INVALID" : "x" }));
  const line = spec.invalidUtf8 ? Buffer.from(headerLine.toString("latin1").replace("INVALID", "\u00ff"), "latin1") : headerLine;
  const payload = Buffer.from(JSON.stringify({ message: tag, padding: "p".repeat(spec.padding) }));
  const plain = Buffer.concat([line, Buffer.from(`\n{"type":"${spec.itemType}","length":${payload.length}}\n`), payload, Buffer.from("\n")]);
  const headers: Record<string, string> = { "content-type": "text/plain;charset=UTF-8" };
  if (spec.encoding === "none") return { body: plain, headers };
  headers["content-encoding"] = spec.encoding;
  const encode = { identity: (b: Buffer) => b, gzip: gzipSync, br: brotliCompressSync, deflate: deflateSync }[spec.encoding];
  return { body: encode(plain), headers };
}

function decoded(body: Buffer, encoding: string | undefined): string {
  try {
    const decode = { gzip: gunzipSync, br: brotliDecompressSync, deflate: inflateSync }[encoding ?? ""];
    return (decode ? decode(body) : body).toString("latin1");
  } catch {
    return "";
  }
}

/** Which behaviour an answer the fake gives is (refused and reset connections give none). */
function kindOf(answer: FakeResponse): Behaviour["kind"] {
  if (answer.hang) return "stall";
  if (answer.destroyMidResponse) return "200-lost";
  if (answer.status === 429) return "429";
  return answer.status >= 500 ? "5xx" : "200";
}

function ingestResponse(b: Behaviour): Partial<FakeResponse> {
  if (b.kind === "reset") return { resetConnection: true };
  if (b.kind === "stall") return { hang: true };
  if (b.kind === "200-lost") return { destroyMidResponse: true };
  if (b.kind === "5xx") return { status: b.status, body: "error" };
  if (b.kind === "429") return { status: 429, headers: b.headers, body: "" };
  return {};
}

/** One run: a server with /healthz and the tunnel on one spool directory, through the phases. */
async function runScenario(phases: Phase[]): Promise<void> {
  const dir = spoolDir();
  const startTunnel = () =>
    createTunnel({
      path: "/monitoring",
      allowedDsns: [dsn],
      maxBytes: 1024 * 1024,
      rateLimitPerMinute: 0,
      connectTimeoutMs: 300,
      headersTimeoutMs: 300,
      spool: spoolOptions(dir.dir, {
        concurrency: 2,
        backoff: { baseMs: 20, capMs: 100 },
        retryBackoff: { baseMs: 40, capMs: 200 },
        rateLimitHoldMs: 1_000,
      }),
    });
  let tunnel: Tunnel = startTunnel();
  const app = new Koa();
  app.use(healthChecks({ ready: true }));
  app.use((ctx, next) => tunnel.router.routes()(ctx as Parameters<ReturnType<Tunnel["router"]["routes"]>>[0], next));
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", resolve));
  const port = (server.address() as AddressInfo).port;

  // What the ingest was asked, and how it answered each request whose body it read.
  let current: Behaviour = { kind: "200" };
  const answered: { text: string; kind: Behaviour["kind"] }[] = [];
  fake.reset();
  // Labelled by the answer the fake chose for this very request (when it arrived), never by the
  // phase current when its body ended: a retry held past a phase's end got the next phase's answer.
  fake.answerFor = (body, recorded, chosen) => {
    answered.push({ text: decoded(body, recorded.headers["content-encoding"] as string | undefined), kind: kindOf(chosen) });
    return undefined;
  };

  const loop = probeEventLoop();
  const healthFailures: string[] = [];
  let probing = true;
  const prober = (async () => {
    while (probing) {
      const res = await timedSend(port, "/healthz", { method: "GET" }, 1_000).catch((error: Error) => ({ status: error.message }));
      if (res.status !== 200) healthFailures.push(String(res.status));
      // Kept: the probe's pace, as a load balancer's health check would come, not a wait for an outcome.
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();

  const acknowledged: string[] = [];
  let restarts = 0;
  let refusing = false;
  try {
    for (const step of phases) {
      current = step.behaviour;
      fake.response = { ...fake.response, status: 200, headers: { "content-type": "application/json" }, body: '{"id":"fake"}', ...ingestResponse(current) };
      if (current.kind === "refuse") {
        await fake.stop();
        refusing = true;
      }
      for (const spec of step.envelopes) {
        sequence += 1;
        const tag = `prop-${sequence}-tag`;
        const { body, headers } = buildEnvelope(spec, tag);
        const res = await timedSend(port, "/monitoring?p=42", { body, headers }, 5_000).catch(() => undefined);
        if (res?.status === 200) acknowledged.push(tag);
      }
      // Kept: how long the ingest behaves this way is the generated input, not a wait for an outcome.
      await new Promise((resolve) => setTimeout(resolve, step.waitMs));
      if (refusing) {
        await fake.start();
        refusing = false;
      }
      if (step.restartAfter) {
        await tunnel.close();
        tunnel = startTunnel();
        restarts += 1;
      }
    }
    current = { kind: "200" };
    fake.response = { ...fake.response, ...ingestResponse(current), status: 200, hang: false, resetConnection: false, destroyMidResponse: false, headers: {}, body: "{}" };
    const accepted = (tag: string) => answered.filter((a) => (a.kind === "200" || a.kind === "200-lost") && a.text.includes(`"message":"${tag}"`));
    await until(() => tunnel.spoolStats?.().envelopes === 0 && acknowledged.every((tag) => accepted(tag).length > 0), 15_000).catch((error: Error) => {
      // Which half failed, and where the envelopes are: a timeout alone says nothing to mend.
      const unaccepted = acknowledged.filter((tag) => accepted(tag).length === 0);
      const seen = { spooled: tunnel.spoolStats?.(), unaccepted, answers: answered.map((a) => a.kind), ingestRequests: fake.requests.length, restarts };
      throw new Error(`${error.message}: ${JSON.stringify(seen)}`);
    });

    for (const tag of acknowledged) {
      // The ingest took it but its answer never came whole: a stalled answer, or a 200 cut mid-answer.
      const lost = answered.filter((a) => (a.kind === "stall" || a.kind === "200-lost") && a.text.includes(`"message":"${tag}"`)).length;
      expect(accepted(tag).length, `${tag} duplicated without a lost answer or a restart`).toBeLessThanOrEqual(1 + lost + restarts);
    }
    expect(healthFailures).toEqual([]);
    expect(loop.maxBlockedMs, `event loop blocked (latest tick ${Math.round(loop.maxLateMs)} ms late)`).toBeLessThan(100);
  } finally {
    probing = false;
    await prober;
    loop.stop();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await tunnel.close();
    if (refusing) await fake.start();
    dir.remove();
  }
}

it("delivers every acknowledged envelope, duplicates only where allowed, with the event loop and /healthz responsive throughout", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(phase, { minLength: 1, maxLength: 4 }), (phases) => runScenario(phases)),
    { numRuns: 15, endOnFailure: true },
  );
}, 180_000);
