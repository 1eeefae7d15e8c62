import { existsSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SpoolOpenError, SpoolStore } from "../../../../src/server/tunnel/spool";
import type { SpoolEntry } from "../../../../src/server/tunnel/spool/types";
import { type FakeIngest, startFakeIngest } from "../../../support/fake-ingest";
import { memoryLog, send, startTunnel, until } from "../harness";
import { datedEnvelope, spoolDir, spoolOptions } from "./spool-harness";

const dirs: ReturnType<typeof spoolDir>[] = [];
const fresh = () => {
  const dir = spoolDir();
  dirs.push(dir);
  return dir.dir;
};
afterAll(() => {
  for (const dir of dirs) dir.remove();
});

const entry = (tag: string, receivedAt = Date.now(), bytes = 100): SpoolEntry => ({
  receivedAt,
  upstream: { origin: "http://127.0.0.1:1", path: "/api/42/envelope/" },
  headers: { "content-type": "text/plain" },
  categories: ["error"],
  body: Buffer.from(tag.padEnd(bytes, ".")),
});

describe("the store", () => {
  it("keeps envelopes across a reopen, oldest first, and drops the oldest past its byte cap", () => {
    const dir = fresh();
    const store = SpoolStore.open(dir);
    expect(store.insert([entry("a"), entry("b")], 250)).toBe(0);
    expect(store.insert([entry("c")], 250)).toBe(1);
    store.close();
    const reopened = SpoolStore.open(dir);
    expect(reopened.after(0, 10).map((row) => reopened.body(row.id)?.toString().slice(0, 1))).toEqual(["b", "c"]);
    expect(reopened.stats()).toMatchObject({ envelopes: 2, bytes: 200 });
    reopened.close();
  });

  it("drops envelopes older than the age cap", () => {
    const store = SpoolStore.open(fresh());
    store.insert([entry("old", Date.now() - 10_000), entry("new")], 10_000);
    expect(store.removeOlderThan(Date.now() - 5_000)).toBe(1);
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

  it("delivers a spool left by a previous run when it starts", async () => {
    const dir = fresh();
    const store = SpoolStore.open(dir);
    const bodies = Array.from({ length: 50 }, (_, i) => datedEnvelope(dsn, `left-${i}`));
    store.insert(
      bodies.map((body) => ({ ...entry(""), upstream: { origin: fake.origin, path: "/api/42/envelope/" }, body })),
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
