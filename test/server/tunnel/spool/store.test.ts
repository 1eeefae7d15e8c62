import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SpoolOpenError, SpoolStore } from "#src/server/tunnel/spool";
import { SCHEMA_VERSION } from "#src/server/tunnel/spool/schema";
import { SpoolWriter } from "#src/server/tunnel/spool/writer";
import { type FakeIngest, startFakeIngest } from "../../../support/fake-ingest";
import { memoryLog, send, startTunnel, until } from "../harness";
import { datedEnvelope, spoolDir, spoolEntry, spoolOptions } from "./spool-harness";

const dirs: ReturnType<typeof spoolDir>[] = [];
const fresh = () => {
  const dir = spoolDir();
  dirs.push(dir);
  return dir.dir;
};
afterAll(() => {
  for (const dir of dirs) dir.remove();
});

const entry = (tag: string, receivedAt = Date.now()) => spoolEntry(tag.padEnd(100, "."), { receivedAt });

describe("the store", () => {
  it("keeps each upstream's depth and oldest envelope through inserts, removals and both caps, across a reopen", () => {
    const dir = fresh();
    const store = SpoolStore.open(dir);
    const at = (origin: string, tag: string, receivedAt: number) =>
      spoolEntry(tag.padEnd(100, "."), { receivedAt, upstream: { origin, path: "/api/1/envelope/" } });
    const [a, b] = ["http://a.example", "http://b.example"];
    store.insert([at(a, "a1", 1_000), at(b, "b1", 2_000), at(a, "a2", 3_000), at(b, "b2", 4_000), at(a, "a3", 5_000)], 1 << 20);
    expect(store.origins().sort()).toEqual([a, b]);
    expect(store.after(0, 10, "all", b).map((row) => row.receivedAt)).toEqual([2_000, 4_000]);
    // Age cap: a1; byte cap: the oldest left, b1; a removal: a2.
    // Each drop says whose envelopes it took.
    expect(store.removeOlderThan(1_500)).toEqual(new Map([[a, 1]]));
    expect(store.trimTo(300)).toEqual(new Map([[b, 1]]));
    store.remove([store.after(0, 1, "all", a)[0]?.id as number]);
    const expected = new Map([
      [a, { envelopes: 1, bytes: 100, oldestReceivedAt: 5_000 }],
      [b, { envelopes: 1, bytes: 100, oldestReceivedAt: 4_000 }],
    ]);
    expect(store.statsByOrigin()).toEqual(expected);
    store.close();
    const reopened = SpoolStore.open(dir);
    expect(reopened.statsByOrigin()).toEqual(expected);
    reopened.remove(reopened.after(0, 10, "all", b).map((row) => row.id));
    expect(reopened.origins()).toEqual([a]);
    reopened.close();
  });

  it("keeps envelopes across a reopen, oldest first, and drops the oldest past its byte cap", () => {
    const dir = fresh();
    const store = SpoolStore.open(dir);
    expect(store.insert([entry("a"), entry("b")], 250).size).toBe(0);
    expect([...store.insert([entry("c")], 250).values()]).toEqual([1]);
    store.close();
    const reopened = SpoolStore.open(dir);
    expect(reopened.after(0, 10).map((row) => reopened.body(row.id)?.toString().slice(0, 1))).toEqual(["b", "c"]);
    expect(reopened.stats()).toMatchObject({ envelopes: 2, bytes: 200 });
    reopened.close();
  });

  it("opens a spool written before attempts were kept, brings it up to date, and stays writable by that release", () => {
    const dir = fresh();
    // The layout and insert of the release before per-envelope retries, as its files are on disk.
    const previous = new Database(path.join(dir, "spool.sqlite"));
    previous.pragma("journal_mode = WAL");
    previous.exec(`
      CREATE TABLE IF NOT EXISTS envelopes (
        id INTEGER PRIMARY KEY AUTOINCREMENT, received_at INTEGER NOT NULL, origin TEXT NOT NULL, path TEXT NOT NULL,
        headers TEXT NOT NULL, categories TEXT NOT NULL, bytes INTEGER NOT NULL, body BLOB NOT NULL
      );
      CREATE INDEX IF NOT EXISTS envelopes_received_at ON envelopes (received_at);
    `);
    const previousInsert = "INSERT INTO envelopes (received_at, origin, path, headers, categories, bytes, body) VALUES (?, ?, ?, ?, ?, ?, ?)";
    const row = (tag: string) => [1_000, "http://127.0.0.1:1", "/api/42/envelope/", '{"content-type":"text/plain"}', "error", tag.length, Buffer.from(tag)];
    previous.prepare(previousInsert).run(...row("left-before"));
    previous.close();

    const store = SpoolStore.open(dir);
    const [left] = store.after(0, 10);
    expect(left).toMatchObject({ receivedAt: 1_000, categories: ["error"], attempts: 0, nextAttemptAt: 0 });
    expect(store.body(left?.id as number)?.toString()).toBe("left-before");
    expect(store.stats()).toMatchObject({ envelopes: 1, bytes: 11 });
    store.reschedule([{ id: left?.id as number, attempts: 1, nextAttemptAt: 5_000 }]);
    // Rolled back, the previous release still inserts into the migrated table.
    store.database.prepare(previousInsert).run(...row("after-rollback"));
    store.close();

    const reopened = SpoolStore.open(dir);
    expect(reopened.database.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    expect(reopened.after(0, 10).map(({ attempts, nextAttemptAt }) => ({ attempts, nextAttemptAt }))).toEqual([
      { attempts: 1, nextAttemptAt: 5_000 },
      { attempts: 0, nextAttemptAt: 0 },
    ]);
    reopened.close();
  });

  it("drops envelopes older than the age cap", () => {
    const store = SpoolStore.open(fresh());
    store.insert([entry("old", Date.now() - 10_000), entry("new")], 10_000);
    expect([...store.removeOlderThan(Date.now() - 5_000).values()]).toEqual([1]);
    expect(store.stats()).toMatchObject({ envelopes: 1, bytes: 100 });
    store.close();
  });

  it("moves a corrupt store aside with an error log and starts a fresh one", () => {
    const dir = fresh();
    writeFileSync(path.join(dir, "spool.sqlite"), Buffer.alloc(8192, 7));
    const { logger, lines } = memoryLog();
    const store = SpoolStore.open(dir, logger);
    expect(store.stats().envelopes).toBe(0);
    store.close();
    expect(readdirSync(dir).some((file) => file.startsWith("spool.sqlite.corrupt-"))).toBe(true);
    expect(lines.filter((line) => line.level === "error")).toHaveLength(1);
  });

  it("moves a corrupt store's WAL aside with it: acknowledged envelopes not yet checkpointed are kept", () => {
    const dir = fresh();
    writeFileSync(path.join(dir, "spool.sqlite"), Buffer.alloc(8192, 7));
    writeFileSync(path.join(dir, "spool.sqlite-wal"), "acknowledged, not yet checkpointed");
    SpoolStore.open(dir).close();
    const aside = readdirSync(dir).find((file) => /^spool\.sqlite\.corrupt-\d+$/.test(file));
    expect(readFileSync(path.join(dir, `${aside}-wal`), "utf8")).toBe("acknowledged, not yet checkpointed");
  });

  it("writes one group commit larger than the byte cap in parts, each dropping the oldest, and ends within the cap", async () => {
    const store = SpoolStore.open(fresh());
    store.insert([entry("old")], 250);
    const drops: number[] = [];
    const writer = new SpoolWriter(store, 250, { capDrop: (dropped) => drops.push(...dropped.values()), removeError: () => {} }, () => 10);
    await Promise.all(["a", "b", "c"].map((tag) => writer.add(entry(tag))));
    expect(store.stats()).toMatchObject({ envelopes: 2, bytes: 200 });
    expect(drops.reduce((sum, count) => sum + count, 0)).toBe(2);
    expect(() => store.insert([entry("x"), entry("y"), entry("z")], 250)).toThrow(RangeError);
    store.close();
  });

  it("refuses a directory that cannot be opened, or one another process holds", () => {
    expect(() => SpoolStore.open("/dev/null/spool")).toThrow(SpoolOpenError);
    const dir = fresh();
    const first = SpoolStore.open(dir);
    expect(() => SpoolStore.open(dir)).toThrow(/cannot be opened/);
    first.close();
    expect(existsSync(path.join(dir, "spool.sqlite"))).toBe(true);
  });
});

describe("a spool that cannot be written", () => {
  let fake: FakeIngest;
  let dsn: string;
  beforeAll(async () => {
    fake = await startFakeIngest();
    dsn = `http://abc123@127.0.0.1:${fake.port}/42`;
    fake.response.status = 503;
  });
  afterEach(() => {
    fake.requests.length = 0;
  });
  afterAll(() => fake.close());

  // Read-only and full as SQLite reports them (this runs as root, whom chmod does not stop).
  it.each([
    ["read-only", "query_only = 1"],
    ["full", "max_page_count = 1"],
  ])("answers 503 with Retry-After when the spool is %s, and keeps serving", async (_name, pragma) => {
    const store = SpoolStore.open(fresh());
    const tunnel = await startTunnel({ allowedDsns: [dsn], spool: spoolOptions("", { store }) });
    try {
      store.database.pragma(pragma);
      // Large enough to need pages a full database cannot add.
      const res = await send(tunnel.port, "/monitoring?p=42", { body: datedEnvelope(dsn, "unwritable".repeat(2000)) });
      expect(res.status).toBe(503);
      expect(res.headers["retry-after"]).toBe("60");
      expect(tunnel.counts.rejected).toEqual({ spool_failed: 1 });
      expect(store.stats().envelopes).toBe(0);
      fake.response.status = 200;
      expect((await send(tunnel.port, "/monitoring?p=42", { body: datedEnvelope(dsn, "later") })).status).toBe(200);
      fake.response.status = 503;
    } finally {
      await tunnel.close();
    }
  });

  it("applies a byte cap lowered since the last run at start, dropping the oldest and counting them", async () => {
    const dir = fresh();
    const store = SpoolStore.open(dir);
    const upstream = { origin: fake.origin, path: "/api/42/envelope/" };
    const bodies = Array.from({ length: 10 }, (_, i) => datedEnvelope(dsn, `kept-${i}`));
    const size = bodies[0]?.length as number;
    store.insert(
      bodies.map((body) => spoolEntry(body, { upstream })),
      1 << 30,
    );
    store.close();
    // The ingest answers 503: nothing leaves the spool but what the cap drops.
    const tunnel = await startTunnel({ allowedDsns: [dsn], spool: spoolOptions(dir, { maxBytes: 5 * size, maxEnvelopeBytes: size }) });
    try {
      expect(tunnel.tunnel.spoolStats?.()).toMatchObject({ envelopes: 5, bytes: 5 * size });
      expect(tunnel.counts.dropped).toEqual({ max_bytes: 5 });
    } finally {
      await tunnel.close();
    }
  });

  it("delivers a spool left by a previous run when it starts", async () => {
    const dir = fresh();
    const store = SpoolStore.open(dir);
    const bodies = Array.from({ length: 50 }, (_, i) => datedEnvelope(dsn, `left-${i}`));
    store.insert(
      bodies.map((body) => spoolEntry(body, { upstream: { origin: fake.origin, path: "/api/42/envelope/" } })),
      1 << 30,
    );
    store.close();
    fake.response.status = 200;
    const tunnel = await startTunnel({ allowedDsns: [dsn], spool: spoolOptions(dir, { concurrency: 4 }) });
    try {
      await until(() => tunnel.tunnel.spoolStats?.().envelopes === 0);
      expect(new Set(fake.requests.map((r) => r.body.toString())).size).toBe(50);
    } finally {
      await tunnel.close();
      fake.response.status = 503;
    }
  });
});
