import { readFileSync } from "node:fs";
import path from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentHashOf } from "#src/server/assets/asset-headers";
import { sharedAssetKey } from "#src/server/assets/shared-asset-key";
import { leaveEarly, send, until } from "../../support/raw-http";
import { redisAvailable, startRedis, type TestRedis } from "../../support/redis-server";
import { type Build, type RollingDeploy, startRollingDeploy } from "../../support/rolling-deploy";
import { type ServerProcess, startServerProcess } from "../../support/server-process";

// Two builds side by side on one Redis, as during a rolling update: each serves the other's assets.

const IMMUTABLE = "public, max-age=31536000, immutable";
const portOf = (server: ServerProcess) => Number(new URL(server.url).port);
const get = (server: ServerProcess, target: string, headers: Record<string, string> = {}, method = "GET") =>
  send(portOf(server), target, { method, headers });
const published = (server: ServerProcess) => server.waitForLogs((lines) => lines.some((line) => String(line.msg).startsWith("shared assets: in Redis")), 10_000);
const bytesOf = (build: Build, urlPath: string) => readFileSync(path.join(build.dist, "client", build.manifest.files[urlPath] ?? "missing"));

describe.runIf(redisAvailable)("assets shared between two live builds through Redis", () => {
  let redis: TestRedis;
  let client: Redis;
  let deploy: RollingDeploy;
  /** The asset keys in Redis the moment both replicas answered /readyz with 200 (the harness waits for it). */
  let keysWhenReady: string[];
  beforeAll(async () => {
    redis = await startRedis();
    client = new Redis(redis.url);
    deploy = await startRollingDeploy({ redisUrl: redis.url, env: { LOG_LEVEL: "debug" } });
    keysWhenReady = await client.keys("outpost:asset:*");
    await Promise.all([published(deploy.a), published(deploy.b)]);
  });
  afterAll(async () => {
    await deploy?.close();
    client?.disconnect();
    await redis?.stop();
  });

  it("reports a replica ready only once its build's hashed assets are in Redis", () => {
    for (const build of [deploy.buildA, deploy.buildB]) {
      const hashed = Object.keys(build.manifest.files).filter((url) => contentHashOf(url) !== undefined);
      expect(hashed.length).toBeGreaterThan(0);
      for (const url of hashed) expect(keysWhenReady, url).toContain(sharedAssetKey(url));
    }
  });

  it("answers every asset of a page of A from B, and of B from A, as the build that has it would", async () => {
    for (const [from, to, build] of [
      ["a", deploy.b, deploy.buildA],
      ["b", deploy.a, deploy.buildB],
    ] as const) {
      const assets = await deploy.assetsOf(from, "/");
      const foreign = assets.filter((url) => !(url in (to === deploy.b ? deploy.buildB : deploy.buildA).manifest.files));
      expect(foreign.length, `assets of ${from} the other build lacks`).toBeGreaterThan(0);
      for (const url of assets) {
        const response = await get(to, url);
        expect(response.status, url).toBe(200);
        expect(response.headers["cache-control"], url).toBe(IMMUTABLE);
        expect(response.headers["content-type"], url).toBe(url.endsWith(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8");
        expect(response.headers.etag, url).toMatch(/^"[A-Z0-9]{8}"$/);
        expect(response.body.equals(bytesOf(build, url)), url).toBe(true);
      }
    }
  });

  it("answers HEAD and If-None-Match for a shared asset as for a local one", async () => {
    const foreign = deploy.buildA.manifest.entry.script;
    expect(foreign in deploy.buildB.manifest.files).toBe(false);
    for (const server of [deploy.a, deploy.b]) {
      const full = await get(server, foreign);
      const head = await get(server, foreign, {}, "HEAD");
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
      for (const name of ["content-length", "content-type", "cache-control", "etag"]) expect(head.headers[name], name).toBe(full.headers[name]);
      const etag = String(full.headers.etag);
      for (const condition of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
        const conditional = await get(server, foreign, { "if-none-match": condition });
        expect(conditional.status, condition).toBe(304);
        expect(conditional.body.length).toBe(0);
        expect(conditional.headers.etag).toBe(etag);
        expect(conditional.headers["cache-control"]).toBe(IMMUTABLE);
      }
      expect((await get(server, foreign, { "if-none-match": '"AAAAAAAA"' })).status).toBe(200);
    }
  });

  it("never serves an unhashed, encoded, doubled or oversized name from Redis, even one planted there", async () => {
    const script = deploy.buildA.manifest.entry.script;
    const file = path.basename(script);
    const planted = [
      "/assets/app.js",
      "/assets/entry.js",
      `/assets/%2e%2e/${file}`,
      `/assets/..%2f${file}`,
      `/assets//${file}`,
      `/assets/chunks//${file}`,
      `/assets/${file}.map`,
      `/assets/x/y/${file}`,
      `/assets/${"a".repeat(5_000)}-ABCDEFGH.js`,
    ];
    for (const target of planted) await client.set(`outpost:asset:${target}`, "alert('planted')");
    for (const target of planted) {
      const response = await get(deploy.b, target);
      expect(response.status, target.slice(0, 80)).toBe(404);
      expect(response.headers["cache-control"], target.slice(0, 80)).toBe("no-store");
      expect(response.text()).not.toContain("planted");
    }
    await client.del(...planted.map((target) => `outpost:asset:${target}`));
  });

  it("answers a hashed asset no build has with a 404 nobody keeps", async () => {
    const response = await get(deploy.a, "/assets/chunks/Gone-ABCDEFGH.js");
    expect(response.status).toBe(404);
    expect(response.headers["cache-control"]).toBe("no-store");
  });

  it("keeps each asset for the retention (24 h by default), renewed by the running replicas", async () => {
    const key = `outpost:asset:${deploy.buildA.manifest.entry.script}`;
    const ttl = await client.pttl(key);
    expect(ttl).toBeGreaterThan(23.9 * 3_600_000);
    expect(ttl).toBeLessThanOrEqual(24 * 3_600_000);
    // Source maps stay private: none is published.
    expect(await client.keys("outpost:asset:*.map")).toEqual([]);
  });

  it("refuses to publish a build over ASSET_PUBLISH_MAX_MB, with a log line naming its size and the cap", async () => {
    const small = await startServerProcess({ REDIS_URL: redis.url, ASSET_PUBLISH_MAX_MB: "0.01" }, { dist: deploy.buildA.dist });
    try {
      const [refusal] = (await small.waitForLogs((lines) => lines.some((line) => String(line.msg).includes("ASSET_PUBLISH_MAX_MB")))).filter((line) =>
        String(line.msg).includes("ASSET_PUBLISH_MAX_MB"),
      );
      expect(refusal?.msg).toMatch(/total \d+\.\d MB, over the ASSET_PUBLISH_MAX_MB cap of 0\.0 MB; not published/);
      expect(refusal?.maxBytes).toBe(Math.round(0.01 * 1024 * 1024));
    } finally {
      await small.stop();
    }
  });

  it("counts where assets came from, and names the build on the build-info metric", async () => {
    await get(deploy.b, deploy.buildA.manifest.entry.script);
    const metrics = await (await fetch(`${deploy.b.metricsUrl}/metrics`)).text();
    expect(metrics).toMatch(/outpost_shared_assets_total\{result="shared"\} [1-9]/);
    expect(metrics).toMatch(/outpost_shared_assets_total\{result="local"\} \d/);
    expect(metrics).toMatch(/outpost_shared_assets_total\{result="missing"\} [1-9]/);
    expect(metrics).toContain(`outpost_build_info{build_id="${deploy.buildB.manifest.buildId}"} 1`);
  });

  it("survives a client leaving mid-answer", async () => {
    const foreign = deploy.buildA.manifest.entry.script;
    for (let i = 0; i < 5; i++) await leaveEarly(portOf(deploy.b), foreign);
    expect((await get(deploy.b, foreign)).status).toBe(200);
    expect(deploy.b.output.filter((line) => line.includes('"request error"'))).toEqual([]);
  });

  it("with Redis killed mid-serve: local assets still 200, foreign ones a quick 404; back with Redis, published again", async () => {
    // A foreign asset neither replica has fetched yet, so no in-process copy answers it.
    const fetched = await deploy.assetsOf("a", "/");
    const notYetFetched = Object.keys(deploy.buildA.manifest.files).find(
      (url) => url.endsWith(".js") && !fetched.includes(url) && !(url in deploy.buildB.manifest.files),
    ) as string;
    const inFlight = Array.from({ length: 20 }, () => get(deploy.b, deploy.buildA.manifest.entry.script));
    await redis.kill();
    const answers = await Promise.all(inFlight);
    expect(answers.every((answer) => answer.status === 200 || answer.status === 404)).toBe(true);
    const local = await get(deploy.b, deploy.buildB.manifest.entry.script);
    expect(local.status).toBe(200);
    const started = performance.now();
    const missing = await get(deploy.b, notYetFetched);
    expect(missing.status).toBe(404);
    expect(missing.headers["cache-control"]).toBe("no-store");
    expect(performance.now() - started).toBeLessThan(1_000);

    // A restarted Redis (no persistence) is empty: both builds publish again once reconnected.
    await redis.start();
    await until(async () => (await get(deploy.b, notYetFetched)).status === 200, 10_000);
    await until(async () => (await get(deploy.a, deploy.buildB.manifest.entry.script)).status === 200, 10_000);
  });
});
