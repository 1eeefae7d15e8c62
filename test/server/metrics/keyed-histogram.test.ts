import { Histogram, Registry } from "prom-client";
import { expect, it } from "vitest";
import { KeyedHistogram } from "#src/server/metrics/keyed-histogram";

const BUCKETS = [0.005, 0.05, 0.5, 5];
// Values on, between, below and above the bounds, for two series.
const OBSERVATIONS: [string, string, number][] = [
  ["GET", "/", 0.005],
  ["GET", "/", 0.0051],
  ["GET", "/", 0.001],
  ["GET", "/items/:id", 7],
  ["GET", "/", 0.5],
  ["POST", "/items/:id", 0.05],
];

it("exposes exactly what prom-client's Histogram exposes for the same observations", async () => {
  const theirs = new Registry();
  const reference = new Histogram({ name: "h", help: "help", labelNames: ["method", "route"], buckets: BUCKETS, registers: [theirs] });
  const ours = new Registry();
  const keyed = new KeyedHistogram({ name: "h", help: "help", buckets: BUCKETS, registers: [ours] });
  for (const [method, route, seconds] of OBSERVATIONS) {
    reference.observe({ method, route }, seconds);
    keyed.observe(`${method} ${route}`, () => ({ method, route }), seconds);
  }
  const exposition = await ours.metrics();
  expect(exposition).toBe(await theirs.metrics());
  expect(exposition).toContain('h_bucket{le="0.005",method="GET",route="/"} 2');
  expect(exposition).toContain('h_bucket{le="+Inf",method="GET",route="/items/:id"} 1');
});

it("makes a series' labels once, and forgets every series on reset", async () => {
  const registry = new Registry();
  const keyed = new KeyedHistogram({ name: "h", help: "help", buckets: BUCKETS, registers: [registry] });
  let made = 0;
  const labels = () => {
    made++;
    return { route: "/" };
  };
  for (let i = 0; i < 3; i++) keyed.observe("/", labels, 0.01);
  expect(made).toBe(1);
  expect(await registry.metrics()).toContain('h_count{route="/"} 3');
  registry.resetMetrics();
  expect(await registry.metrics()).not.toContain("h_count");
});
