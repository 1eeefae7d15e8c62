import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FakeIngest, startFakeIngest } from "../../../support/fake-ingest";
import { open, send, startTunnel, type TunnelServer, until } from "../harness";
import { ENCODINGS, encode, encodingHeaders, envelopeOf, item, readEnvelope, scrubObserver } from "./scrub-harness";

let fake: FakeIngest;
let dsn: string;
let tunnel: TunnelServer;
let watch: ReturnType<typeof scrubObserver>;

beforeAll(async () => {
  fake = await startFakeIngest();
  dsn = `http://abc123@127.0.0.1:${fake.port}/42`;
  watch = scrubObserver();
  tunnel = await startTunnel({ allowedDsns: [dsn], scrub: "defaults", maxBytes: 4 * 1024 * 1024, ...watch.options });
});
afterEach(() => {
  fake.reset();
  watch.drops.length = 0;
  for (const rule of Object.keys(watch.scrubbed)) delete watch.scrubbed[rule];
});
afterAll(async () => {
  await tunnel.close();
  await fake.close();
});

const PEM = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF0qJ\n-----END RSA PRIVATE KEY-----";

/** An error event carrying one secret of each kind Relay's defaults scrub. */
const secretEvent = () => ({
  event_id: "9ec79c33ec9942ab8353589fcb2e04dc",
  message: "paid with 4111 1111 1111 1111, not 4111 1111 1111 1112",
  request: {
    url: "https://shop.example/pay?x=1",
    headers: { Authorization: "Basic dXNlcjpwYXNz", Cookie: "sessionid=abc; csrftoken=def", "User-Agent": "Mozilla/5.0 Chrome/124.0.0.0" },
    cookies: { sessionid: "abc", csrftoken: "def" },
  },
  extra: { config: { db: { password: "hunter2", port: 5432 } }, apiKey: "k-123", note: "call with Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc" },
  contexts: { app: { private_key: PEM, dump: `key: ${PEM}` }, auth: { user: "x" } },
  breadcrumbs: { values: [{ category: "fetch", data: { url: "https://admin:s3cret@db.example/x", access_token: "t0k" } }] },
  user: { id: "42", ip_address: "203.0.113.7" },
  tags: { visitor: "from 198.51.100.23 and 2001:db8:1:2::7" },
});

/** What the ingest must see of secretEvent() once scrubbed (addresses kept: SENTRY_TUNNEL_FORWARD_IP full). */
const expectScrubbed = (event: Record<string, any>) => {
  expect(event.message).toBe("paid with [Filtered], not 4111 1111 1111 1112");
  expect(event.request.headers).toEqual({ Authorization: "[Filtered]", Cookie: "[Filtered]", "User-Agent": "Mozilla/5.0 Chrome/124.0.0.0" });
  expect(event.request.cookies).toBe("[Filtered]");
  expect(event.request.url).toBe("https://shop.example/pay?x=1");
  expect(event.extra).toEqual({ config: { db: { password: "[Filtered]", port: 5432 } }, apiKey: "[Filtered]", note: "call with [Filtered]" });
  expect(event.contexts.app.private_key).toBe("[Filtered]");
  expect(event.contexts.app.dump).toBe("key: -----BEGIN RSA PRIVATE KEY-----[Filtered]-----END RSA PRIVATE KEY-----");
  expect(event.contexts.auth).toBe("[Filtered]");
  expect(event.breadcrumbs.values[0].data).toEqual({ url: "https://[Filtered]@db.example/x", access_token: "[Filtered]" });
  expect(event.user).toEqual({ id: "42", ip_address: "203.0.113.7" });
  expect(event.tags.visitor).toBe("from 198.51.100.23 and 2001:db8:1:2::7");
};

const attachment = () => {
  const bytes = randomBytes(5000);
  bytes.write('\n{"password":"hunter2"}\n', 100);
  return bytes;
};

describe("SENTRY_TUNNEL_SCRUB=defaults", () => {
  it.each(ENCODINGS)("scrubs an event (%s body) and passes attachment, replay and session byte for byte", async (encoding) => {
    const binary = attachment();
    const replay = Buffer.from('{"segment_id":0}\n\x78\x9c\x00password=1');
    const session = '{"sid":"1","status":"ok","attrs":{"release":"1.0","ip_address":"203.0.113.7"}}';
    const items = [
      item({ type: "attachment", filename: "a.bin" }, binary),
      item({ type: "event" }, secretEvent()),
      item({ type: "replay_recording" }, replay),
      item({ type: "session" }, session, false),
    ];
    const res = await send(tunnel.port, "/monitoring?p=42", { body: encode(envelopeOf(dsn, items), encoding), headers: encodingHeaders(encoding) });
    expect(res.status).toBe(200);
    const seen = fake.requests[0];
    expect(seen?.headers["content-encoding"]).toBeUndefined();
    const envelope = readEnvelope(seen as NonNullable<typeof seen>);
    expect(envelope.header.dsn).toBe(dsn);
    expect(envelope.items.map((i) => i.header.type)).toEqual(["attachment", "event", "replay_recording", "session"]);
    const [att, event, rec, ses] = envelope.items;
    expect(att?.payload.equals(binary)).toBe(true);
    expect(att?.header).toEqual({ type: "attachment", filename: "a.bin", length: binary.length });
    expect(rec?.payload.equals(replay)).toBe(true);
    expect(ses?.payload.toString()).toBe(session);
    expectScrubbed(JSON.parse(event?.payload.toString() ?? ""));
    expect(event?.header.length).toBe(event?.payload.length);
    expect(watch.scrubbed).toEqual({ password: 6, cookie: 2, creditcard: 1, bearer: 1, pemkey: 1, urlauth: 1 });
  });

  it("scrubs transactions, and an event whose item header gives no length", async () => {
    const transaction = { type: "transaction", transaction: "/pay", spans: [{ data: { "http.request.header.authorization": "Bearer abc.def" } }] };
    const items = [item({ type: "event" }, { message: "token=1", extra: { token: "x" } }, false), item({ type: "transaction" }, transaction)];
    const res = await send(tunnel.port, "/monitoring?p=42", { body: envelopeOf(dsn, items) });
    expect(res.status).toBe(200);
    const [event, tx] = readEnvelope(fake.requests[0] as never).items;
    expect(JSON.parse(event?.payload.toString() ?? "")).toEqual({ message: "token=1", extra: { token: "[Filtered]" } });
    expect(event?.header.length).toBe(event?.payload.length);
    expect(JSON.parse(tx?.payload.toString() ?? "").spans[0].data["http.request.header.authorization"]).toBe("[Filtered]");
  });

  it("scrubs a Cookie header sent as a list of pairs, and values nested thousands of levels deep", async () => {
    let deep: Record<string, unknown> = { password: "deep-secret", note: "4111111111111111" };
    for (let i = 0; i < 3_000; i++) deep = { child: deep };
    const event = { request: { headers: [["Cookie", "a=b"], ["Accept", "*/*"]] }, extra: { deep } };
    const res = await send(tunnel.port, "/monitoring?p=42", { body: envelopeOf(dsn, [item({ type: "event" }, event)]) });
    expect(res.status).toBe(200);
    const text = readEnvelope(fake.requests[0] as never).items[0]?.payload.toString() ?? "";
    expect(text).not.toContain("deep-secret");
    expect(text).not.toContain("4111111111111111");
    expect(JSON.parse(text).request.headers).toEqual([["Cookie", "[Filtered]"], ["Accept", "*/*"]]);
  });

  it("leaves an event with nothing to scrub byte for byte", async () => {
    const payload = Buffer.from('{ "message" : "all fine",\t"extra": {"count": 1.50} }');
    const body = envelopeOf(dsn, [item({ type: "event" }, payload)]);
    expect((await send(tunnel.port, "/monitoring?p=42", { body })).status).toBe(200);
    expect(fake.requests[0]?.body.equals(body)).toBe(true);
    expect(watch.scrubbed).toEqual({});
  });
});

describe("events that cannot be scrubbed are dropped (invalid)", () => {
  it.each(["identity", "gzip"] as const)("drops an event past 1 MiB decoded (%s, streamed) and forwards the rest", async (encoding) => {
    const huge = { message: "big", extra: { blob: "x".repeat(2 * 1024 * 1024), password: "hunter2" } };
    const session = item({ type: "session" }, { sid: "1" });
    const body = encode(envelopeOf(dsn, [item({ type: "event" }, huge), session]), encoding);
    const chunks = Array.from({ length: Math.ceil(body.length / 65_536) }, (_, i) => body.subarray(i * 65_536, (i + 1) * 65_536));
    const res = await send(tunnel.port, "/monitoring?p=42", { body: chunks, headers: encodingHeaders(encoding) });
    expect(res.status).toBe(200);
    const envelope = readEnvelope(fake.requests[0] as never);
    expect(envelope.items.map((i) => i.header.type)).toEqual(["session"]);
    expect(fake.requests[0]?.body.includes("hunter2")).toBe(false);
    expect(watch.drops).toEqual([{ target: { dsn, upstream: { origin: fake.origin, path: "/api/42/envelope/" } }, drop: { reason: "invalid", category: "error", quantity: 1 } }]);
  });

  it("drops an event or transaction that is no JSON object, naming its category", async () => {
    const items = [item({ type: "event" }, '{"password":"hunter2"'), item({ type: "transaction" }, "[1,2]"), item({ type: "session" }, { sid: "1" })];
    const res = await send(tunnel.port, "/monitoring?p=42", { body: envelopeOf(dsn, items) });
    expect(res.status).toBe(200);
    expect(readEnvelope(fake.requests[0] as never).items.map((i) => i.header.type)).toEqual(["session"]);
    expect(watch.drops.map(({ drop }) => drop)).toEqual([
      { reason: "invalid", category: "error", quantity: 1 },
      { reason: "invalid", category: "transaction", quantity: 1 },
    ]);
  });

  it("refuses an envelope it cannot read (400), sending nothing upstream", async () => {
    const cut = Buffer.concat([Buffer.from(`${JSON.stringify({ dsn })}\n{"type":"event","length":500}\n`), Buffer.from('{"password":"x"}')]);
    const notGzip = Buffer.from(`${JSON.stringify({ dsn })}\n{"type":"event"}\n{}`);
    const badHeader = Buffer.from(`${JSON.stringify({ dsn })}\nnot json\n{}`);
    for (const [body, headers] of [[cut, {}], [notGzip, { "content-encoding": "gzip" }], [badHeader, {}]] as const) {
      const res = await send(tunnel.port, "/monitoring?p=42", { body, headers });
      expect(res.status).toBe(400);
    }
    // A gzip body that is no gzip is refused by the header check before the scrubber sees it.
    expect(fake.requests.filter((request) => request.complete)).toHaveLength(0);
  });

  it("refuses a streamed envelope whose gzip breaks mid-way, with no report of an ingest failure", async () => {
    const good = encode(envelopeOf(dsn, [item({ type: "attachment" }, randomBytes(300_000))]), "gzip");
    const broken = Buffer.concat([good.subarray(0, 100_000), randomBytes(50_000)]);
    const res = await send(tunnel.port, "/monitoring?p=42", { body: [broken.subarray(0, 60_000), broken.subarray(60_000)], headers: { "content-encoding": "gzip" } });
    expect(res.status).toBe(400);
    expect(res.json().detail).toMatch(/Content-Encoding/);
    expect(watch.counts.rejected.upstream_unreachable).toBeUndefined();
  });
});

describe("with SENTRY_TUNNEL_FORWARD_IP not full", () => {
  it("removes user.ip_address and masks addresses in strings, but not versions", async () => {
    const observer = scrubObserver();
    const truncating = await startTunnel({ allowedDsns: [dsn], scrub: "defaults", forwardIp: "truncated", ...observer.options });
    try {
      const res = await send(truncating.port, "/monitoring?p=42", { body: envelopeOf(dsn, [item({ type: "event" }, secretEvent())]) });
      expect(res.status).toBe(200);
      const event = JSON.parse(readEnvelope(fake.requests[0] as never).items[0]?.payload.toString() ?? "");
      expect(event.user).toEqual({ id: "42" });
      expect(event.tags.visitor).toBe("from [ip] and [ip]");
      expect(event.request.headers["User-Agent"]).toBe("Mozilla/5.0 Chrome/124.0.0.0");
      expect(observer.scrubbed.ip).toBe(3);
    } finally {
      await truncating.close();
    }
  });
});

describe("uploads", () => {
  it("a client that leaves mid-upload aborts the upstream request; what went before it was scrubbed", async () => {
    const req = open(tunnel.port, "/monitoring?p=42");
    req.on("error", () => {});
    const event = item({ type: "event" }, { extra: { password: "hunter2" } });
    req.write(Buffer.concat([Buffer.from(`${JSON.stringify({ dsn })}\n`), event, item({ type: "attachment" }, randomBytes(100_000)).subarray(0, 80_000)]));
    await until(() => (fake.requests[0]?.body.length ?? 0) > 1_000);
    expect(fake.requests[0]?.body.includes("hunter2")).toBe(false);
    expect(fake.requests[0]?.body.includes('"password":"[Filtered]"')).toBe(true);
    req.destroy();
    await until(() => watch.counts.rejected.client_aborted === 1);
    await until(() => fake.requests[0]?.aborted === true);
    expect(fake.requests[0]?.complete).toBe(false);
    await until(async () => (await tunnel.connections()) === 0);
  });

  it("SENTRY_TUNNEL_SCRUB=off (the default) forwards secrets byte for byte, compressed as sent", async () => {
    const plain = await startTunnel({ allowedDsns: [dsn] });
    try {
      const body = encode(envelopeOf(dsn, [item({ type: "event" }, secretEvent())]), "gzip");
      expect((await send(plain.port, "/monitoring?p=42", { body, headers: { "content-encoding": "gzip" } })).status).toBe(200);
      expect(fake.requests[0]?.body.equals(body)).toBe(true);
      expect(fake.requests[0]?.headers["content-encoding"]).toBe("gzip");
    } finally {
      await plain.close();
    }
  });
});
