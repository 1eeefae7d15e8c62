import { Counter, Gauge, type Registry } from "prom-client";

/** One upstream's share of the spool as the tunnel reports it (see src/server/tunnel/spool). */
export interface SpoolDepth {
  /** The upstream's label: a configured ingest's host, or `other`. */
  upstream: string;
  envelopes: number;
  bytes: number;
  oldestReceivedAt: number | undefined;
}

const CIRCUIT_STATES = ["closed", "open", "half_open"] as const;

/**
 * The tunnel spool's series, by upstream: depth (read from the store when scraped), what went
 * in and out, and each upstream's circuit as one gauge per state, 1 for the current one. An
 * upstream once seen keeps its depth series, at 0 when its backlog is gone.
 */
export function createSpoolMetrics(registry: Registry) {
  let depths: (() => SpoolDepth[]) | undefined;
  const seen = new Set<string>();
  const registers = [registry];
  const depthGauge = (name: string, help: string, value: (depth: SpoolDepth) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ["upstream"] as const,
      registers,
      collect() {
        const current = new Map((depths?.() ?? []).map((depth) => [depth.upstream, depth]));
        for (const upstream of current.keys()) seen.add(upstream);
        for (const upstream of seen) {
          const depth = current.get(upstream);
          this.set({ upstream }, depth ? value(depth) : 0);
        }
      },
    });
  depthGauge("outpost_tunnel_spool_envelopes", "Envelopes waiting in the tunnel's spool, by upstream", (depth) => depth.envelopes);
  depthGauge("outpost_tunnel_spool_bytes", "Bytes of envelopes waiting in the tunnel's spool, by upstream", (depth) => depth.bytes);
  depthGauge("outpost_tunnel_spool_oldest_age_seconds", "Age of the oldest envelope in the tunnel's spool, by upstream (0 when empty)", (depth) =>
    depth.oldestReceivedAt === undefined ? 0 : Math.max(0, (Date.now() - depth.oldestReceivedAt) / 1000),
  );
  const spooled = new Counter({ name: "outpost_tunnel_spool_spooled_total", help: "Envelopes stored in the spool and acknowledged", registers });
  const replayed = new Counter({
    name: "outpost_tunnel_spool_replayed_total",
    help: "Delivery attempts of spooled envelopes, by the ingest's status (or unreachable, timeout)",
    labelNames: ["status"] as const,
    registers,
  });
  const dropped = new Counter({
    name: "outpost_tunnel_spool_dropped_total",
    help: "Spooled envelopes dropped undelivered, by reason (max_age, max_bytes, rejected by the ingest, dsn_not_allowed since it was spooled) and upstream",
    labelNames: ["reason", "upstream"] as const,
    registers,
  });
  const circuit = new Gauge({
    name: "outpost_tunnel_circuit_state",
    help: "The tunnel's circuit to each upstream Sentry ingest: 1 for its current state (closed, open, half_open)",
    labelNames: ["upstream", "state"] as const,
    registers,
  });

  const maxBytes = new Gauge({
    name: "outpost_tunnel_spool_max_bytes",
    help: "The spool's byte cap (SENTRY_TUNNEL_SPOOL_MAX_BYTES), shared by every upstream; beyond it the oldest envelopes are dropped",
    registers,
  });

  return {
    /** `capBytes` is exported so an alert can compare the spool's bytes with it. */
    watchSpool(read: () => SpoolDepth[], capBytes: number) {
      depths = read;
      maxBytes.set(capBytes);
    },
    observer: {
      spooled() {
        spooled.inc();
      },
      replayed(status: string) {
        replayed.inc({ status });
      },
      spoolDropped(reason: string, count: number, upstream: string) {
        dropped.inc({ reason, upstream }, count);
      },
      circuitChanged(state: string, upstream: string) {
        seen.add(upstream);
        for (const each of CIRCUIT_STATES) circuit.set({ upstream, state: each }, each === state ? 1 : 0);
      },
    },
  };
}
