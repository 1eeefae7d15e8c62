import { totalmem } from "node:os";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { AssetResult } from "../assets/static-assets";
import { BUILD_ID } from "../monitoring/build-info";
import type { EventObserver } from "../events/event-service";
import { createEventMetrics } from "./event-metrics";
import { KeyedHistogram } from "./keyed-histogram";
import { createSpoolMetrics, type SpoolDepth } from "./spool-metrics";
import type { ScrubRule } from "../tunnel/scrub/rules";

const SCRUB_RULES = ["password", "cookie", "creditcard", "bearer", "pemkey", "urlauth", "ip"] as const satisfies readonly ScrubRule[];

/** What the Sentry tunnel reports; implemented here with Prometheus counters. */
export interface TunnelObserver {
  forwarded(bytes: number): void;
  rejected(reason: string): void;
  upstreamResponse(status: number, seconds: number): void;
  spooled(bytes: number): void;
  replayed(status: string): void;
  spoolDropped(reason: string, count: number, upstream: string): void;
  circuitChanged(state: string, upstream: string): void;
  discarded(reason: string, category: string, quantity: number): void;
  scrubbed(rule: string, count: number): void;
}

export interface Metrics {
  registry: Registry;
  /** `route` is a pattern like `/items/:id` or a fixed label like `not_found`, never a raw URL. */
  observeRequest(method: string, route: string, status: number, seconds: number, clientLeft?: boolean): void;
  /** Server-side render duration by route pattern. */
  observeRender(route: string, seconds: number): void;
  tunnelObserver: TunnelObserver;
  /** A state-changing request refused as cross-site, by the check that refused it. */
  observeCsrfRefusal(check: string): void;
  /** A page answered 503 because its session's store could not be reached. */
  observeSessionUnavailable(): void;
  /** An asset request, by where it was answered from: this build's files, another build's through Redis, or nowhere (404). */
  observeAsset(result: AssetResult): void;
  /** A page cache lookup's result: hit, stale, miss or bypass. */
  observePageCache(result: "hit" | "stale" | "miss" | "bypass"): void;
  /** A revalidation given up after a minute of retries against an unreachable Redis. */
  observePageCacheDropFailure(): void;
  /** Reads the spool's depth per upstream when metrics are scraped; `capBytes` is its byte cap. */
  watchSpool(read: () => SpoolDepth[], capBytes: number): void;
  /** Event streams opened and closed, events published (for the app's services). */
  eventsObserver: EventObserver;
  /** `outpost_event_streams`: the open streams, read at each scrape. */
  watchEventStreams(read: () => number): void;
  /** `outpost_redis_up`, read at each scrape; registered only when REDIS_URL is set. */
  watchRedis(connection: { readonly up: boolean }): void;
}

/** Node reports an unconstrained process as a limit of 2^64 bytes; the machine's memory is the real bound then. */
function memoryLimitBytes(): number {
  const constrained = process.constrainedMemory();
  return constrained > 0 && constrained < totalmem() ? constrained : totalmem();
}

// Seconds; SSR pages and the upstream ingest are expected well under a second.
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** A fresh registry each call (never prom-client's global one), so tests and several servers can coexist. */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  new Gauge({
    name: "outpost_process_memory_limit_bytes",
    help: "Memory the process may use: its container's (cgroup) limit, or the machine's total when it has none",
    registers: [registry],
    collect() {
      this.set(memoryLimitBytes());
    },
  });

  new Gauge({
    name: "outpost_build_info",
    help: "Always 1; build_id names the build this process serves (two values side by side during a rolling update)",
    labelNames: ["build_id"] as const,
    registers: [registry],
  }).set({ build_id: BUILD_ID }, 1);
  const assetRequests = new Counter({
    name: "outpost_shared_assets_total",
    help: "Asset requests by where they were answered from: local (this build), shared (another build's, through Redis) or missing (404)",
    labelNames: ["result"] as const,
    registers: [registry],
  });
  // One child per result, bound once: every asset request counts, and all three series exist from the start.
  const assetResults = Object.fromEntries(
    (["local", "shared", "missing"] as const).map((result) => {
      const child = assetRequests.labels({ result });
      child.inc(0);
      return [result, child];
    }),
  ) as Record<AssetResult, { inc(): void }>;
  const pageCacheRequests = new Counter({
    name: "outpost_page_cache_total",
    help: "Requests for pages that declare `cache`, by result: hit (fresh), stale (answered while one render refreshes it), miss (rendered and kept) or bypass (rendered, not kept: it depended on who asked)",
    labelNames: ["result"] as const,
    registers: [registry],
  });
  const pageCacheDropFailures = new Counter({
    name: "outpost_page_cache_drop_failures_total",
    help: "Revalidations (revalidateTag, revalidatePath) that could not reach Redis within a minute of retries: other replicas may serve the dropped pages until they expire",
    registers: [registry],
  });
  const pageCacheResults = Object.fromEntries(
    (["hit", "stale", "miss", "bypass"] as const).map((result) => {
      const child = pageCacheRequests.labels({ result });
      child.inc(0);
      return [result, child];
    }),
  ) as Record<"hit" | "stale" | "miss" | "bypass", { inc(): void }>;

  // Observed on every request: label values method, route and status; route only.
  const httpRequestDuration = new KeyedHistogram({
    name: "outpost_http_request_duration_seconds",
    help: "HTTP request duration by method, route pattern and status",
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const clientLeft = new Counter({
    name: "outpost_http_client_left_total",
    help: "Responses the client closed the connection on before their end, by route pattern",
    labelNames: ["route"],
    registers: [registry],
  });
  const ssrRenderDuration = new KeyedHistogram({
    name: "outpost_ssr_render_duration_seconds",
    help: "Server-side React render duration by route pattern",
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });

  const forwarded = new Counter({
    name: "outpost_tunnel_forwarded_total",
    help: "Sentry envelopes forwarded upstream by the tunnel",
    registers: [registry],
  });
  const bytes = new Counter({
    name: "outpost_tunnel_bytes_total",
    help: "Bytes of Sentry envelopes forwarded upstream by the tunnel",
    registers: [registry],
  });
  const rejected = new Counter({
    name: "outpost_tunnel_rejected_total",
    help: "Sentry envelopes rejected by the tunnel, by reason",
    labelNames: ["reason"] as const,
    registers: [registry],
  });
  // The quota's series from the start, at 0: its dashboard panel is defined before the first refusal.
  rejected.inc({ reason: "quota" }, 0);
  const upstreamResponses = new Counter({
    name: "outpost_tunnel_upstream_responses_total",
    help: "Responses from the Sentry ingest to forwarded envelopes, by status",
    labelNames: ["status"] as const,
    registers: [registry],
  });
  const scrubbed = new Counter({
    name: "outpost_tunnel_scrubbed_total",
    help: "Values the tunnel's scrubber replaced in events and transactions before they left (SENTRY_TUNNEL_SCRUB), by rule",
    labelNames: ["rule"] as const,
    registers: [registry],
  });
  // Every rule's series from the start, at 0, so that a rate over it is defined before the first replacement.
  for (const rule of SCRUB_RULES) scrubbed.inc({ rule }, 0);
  const discarded = new Counter({
    name: "outpost_tunnel_discarded_total",
    help: "Items the tunnel dropped and reported to Sentry in client reports, by Sentry's discard reason and data category",
    labelNames: ["reason", "category"] as const,
    registers: [registry],
  });
  const upstreamDuration = new Histogram({
    name: "outpost_tunnel_upstream_duration_seconds",
    help: "Duration of forwarding an envelope to the Sentry ingest",
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });

  const csrfRejected = new Counter({
    name: "outpost_csrf_rejected_total",
    help: "State-changing requests refused as cross-site, by the check that failed",
    labelNames: ["check"] as const,
    registers: [registry],
  });

  const sessionUnavailable = new Counter({
    name: "outpost_session_unavailable_total",
    help: "Requests answered 503 because the session store (Redis) could not be reached",
    registers: [registry],
  });

  const spool = createSpoolMetrics(registry);
  const events = createEventMetrics(registry);
  const tunnelObserver: TunnelObserver = {
    ...spool.observer,
    forwarded(n) {
      forwarded.inc();
      if (n > 0) bytes.inc(n);
    },
    rejected(reason) {
      rejected.inc({ reason });
    },
    upstreamResponse(status, seconds) {
      upstreamResponses.inc({ status: String(status) });
      upstreamDuration.observe(seconds);
    },
    scrubbed(rule, count) {
      scrubbed.inc({ rule }, count);
    },
    discarded(reason, category, quantity) {
      discarded.inc({ reason, category }, quantity);
    },
  };

  return {
    registry,
    observeRequest(method, route, status, seconds, left) {
      httpRequestDuration.observe(`${method} ${status} ${route}`, () => ({ method, route, status: String(status) }), seconds);
      if (left) clientLeft.inc({ route });
    },
    observeRender(route, seconds) {
      ssrRenderDuration.observe(route, () => ({ route }), seconds);
    },
    tunnelObserver,
    observeCsrfRefusal(check) {
      csrfRejected.inc({ check });
    },
    observeSessionUnavailable() {
      sessionUnavailable.inc();
    },
    observeAsset(result) {
      assetResults[result].inc();
    },
    observePageCache(result) {
      pageCacheResults[result].inc();
    },
    observePageCacheDropFailure() {
      pageCacheDropFailures.inc();
    },
    watchSpool: spool.watchSpool,
    eventsObserver: events.eventsObserver,
    watchEventStreams: events.watchEventStreams,
    watchRedis(connection) {
      new Gauge({
        name: "outpost_redis_up",
        help: "1 while the shared Redis (REDIS_URL) answers its probe write (every 2 s, within REDIS_TIMEOUT_MS), 0 while limits count per instance and session pages answer 503",
        registers: [registry],
        collect() {
          this.set(connection.up ? 1 : 0);
        },
      });
    },
  };
}
