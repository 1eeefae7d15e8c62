import { totalmem } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { createMetrics, type MetricsServer, startMetricsServer } from "#src/server/metrics";

const servers: MetricsServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(metrics = createMetrics()) {
  const server = await startMetricsServer({ registry: metrics.registry, port: 0, host: "127.0.0.1" });
  servers.push(server);
  return { metrics, url: `http://127.0.0.1:${server.port}` };
}

async function scrape(url: string) {
  const res = await fetch(`${url}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

describe("metrics listener", () => {
  it("exposes HTTP and SSR histograms by route pattern", async () => {
    const { metrics, url } = await start();
    metrics.observeRequest("GET", "/items/:id", 200, 0.042);
    metrics.observeRequest("GET", "not_found", 404, 0.003);
    metrics.observeRequest("GET", "/items/:id", 200, 0.2);
    metrics.observeRender("/", 0.02);

    const body = await scrape(url);
    expect(body).toContain("# TYPE outpost_http_request_duration_seconds histogram");
    expect(body).toContain(
      'outpost_http_request_duration_seconds_count{method="GET",route="/items/:id",status="200"} 2',
    );
    expect(body).toContain('outpost_http_request_duration_seconds_bucket{le="0.05",method="GET",route="/items/:id",status="200"} 1');
    expect(body).toContain('outpost_http_request_duration_seconds_count{method="GET",route="not_found",status="404"} 1');
    expect(body).toContain('outpost_ssr_render_duration_seconds_count{route="/"} 1');
    expect(body).toContain('outpost_ssr_render_duration_seconds_sum{route="/"} 0.02');
  });

  it("counts what the tunnel observes", async () => {
    const { metrics, url } = await start();
    const t = metrics.tunnelObserver;
    t.forwarded(120);
    t.forwarded(80);
    t.rejected("dsn_not_allowed");
    t.rejected("too_large");
    t.rejected("too_large");
    t.upstreamResponse(200, 0.15);
    t.upstreamResponse(429, 0.02);

    const body = await scrape(url);
    expect(body).toMatch(/^outpost_tunnel_forwarded_total 2$/m);
    expect(body).toMatch(/^outpost_tunnel_bytes_total 200$/m);
    expect(body).toContain('outpost_tunnel_rejected_total{reason="dsn_not_allowed"} 1');
    expect(body).toContain('outpost_tunnel_rejected_total{reason="too_large"} 2');
    expect(body).toContain('outpost_tunnel_upstream_responses_total{status="200"} 1');
    expect(body).toContain('outpost_tunnel_upstream_responses_total{status="429"} 1');
    expect(body).toMatch(/^outpost_tunnel_upstream_duration_seconds_count 2$/m);
    expect(body).toMatch(/^outpost_tunnel_upstream_duration_seconds_bucket\{le="0\.25"\} 2$/m);
  });

  it("counts cross-site refusals by check", async () => {
    const { metrics, url } = await start();
    metrics.observeCsrfRefusal("origin");
    metrics.observeCsrfRefusal("origin");
    metrics.observeCsrfRefusal("sec_fetch_site");
    const body = await scrape(url);
    expect(body).toContain('outpost_csrf_rejected_total{check="origin"} 2');
    expect(body).toContain('outpost_csrf_rejected_total{check="sec_fetch_site"} 1');
  });

  it("includes Node's default metrics", async () => {
    const { url } = await start();
    const body = await scrape(url);
    expect(body).toContain("process_cpu_user_seconds_total");
    expect(body).toContain("nodejs_heap_size_used_bytes");
    expect(body).toContain("nodejs_eventloop_lag_seconds");
  });

  it("exports the memory the process may use, at most the machine's", async () => {
    const { url } = await start();
    const limit = Number(/^outpost_process_memory_limit_bytes (\d+)$/m.exec(await scrape(url))?.[1]);
    expect(limit).toBeGreaterThan(0);
    expect(limit).toBeLessThanOrEqual(totalmem());
  });

  it("keeps each createMetrics() registry separate", async () => {
    const a = await start();
    const b = await start();
    a.metrics.tunnelObserver.forwarded(10);
    expect(await scrape(a.url)).toMatch(/^outpost_tunnel_forwarded_total 1$/m);
    expect(await scrape(b.url)).toMatch(/^outpost_tunnel_forwarded_total 0$/m);
  });

  it("serves only GET /metrics", async () => {
    const { url } = await start();
    expect((await fetch(`${url}/`)).status).toBe(404);
    expect((await fetch(`${url}/metrics/x`)).status).toBe(404);
    const post = await fetch(`${url}/metrics`, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    const head = await fetch(`${url}/metrics?x=1`, { method: "HEAD" });
    expect(head.status).toBe(200);
  });

  it("closes promptly with a keep-alive scraper connected", async () => {
    const metrics = createMetrics();
    const server = await startMetricsServer({ registry: metrics.registry, port: 0, host: "127.0.0.1" });
    await fetch(`http://127.0.0.1:${server.port}/metrics`).then((r) => r.text());
    const started = Date.now();
    await server.close();
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("rejects when the port is taken", async () => {
    const { url } = await start();
    const port = Number(new URL(url).port);
    await expect(
      startMetricsServer({ registry: createMetrics().registry, port, host: "127.0.0.1" }),
    ).rejects.toMatchObject({ code: "EADDRINUSE" });
  });
});
