import { Counter, Gauge, type Registry } from "prom-client";

/** The spool's depth as the tunnel reports it (see src/server/tunnel/spool). */
export interface SpoolDepth {
  envelopes: number;
  bytes: number;
  oldestReceivedAt: number | undefined;
}

const CIRCUIT_STATES = ["closed", "open", "half_open"] as const;

/**
 * The tunnel spool's series: depth (read from the store when scraped), what went in and out,
 * and the circuit's state as one gauge per state, 1 for the current one.
 */
export function createSpoolMetrics(registry: Registry) {
  let depth: (() => SpoolDepth) | undefined;
  const registers = [registry];
  new Gauge({
    name: "outpost_tunnel_spool_envelopes",
    help: "Envelopes waiting in the tunnel's spool",
    registers,
    collect() {
      this.set(depth?.().envelopes ?? 0);
    },
  });
  new Gauge({
    name: "outpost_tunnel_spool_bytes",
    help: "Bytes of envelopes waiting in the tunnel's spool",
    registers,
    collect() {
      this.set(depth?.().bytes ?? 0);
    },
  });
  new Gauge({
    name: "outpost_tunnel_spool_oldest_age_seconds",
    help: "Age of the oldest envelope in the tunnel's spool (0 when empty)",
    registers,
    collect() {
      const oldest = depth?.().oldestReceivedAt;
      this.set(oldest === undefined ? 0 : Math.max(0, (Date.now() - oldest) / 1000));
    },
  });
  const spooled = new Counter({ name: "outpost_tunnel_spool_spooled_total", help: "Envelopes stored in the spool and acknowledged", registers });
  const replayed = new Counter({
    name: "outpost_tunnel_spool_replayed_total",
    help: "Delivery attempts of spooled envelopes, by the ingest's status (or unreachable, timeout)",
    labelNames: ["status"] as const,
    registers,
  });
  const dropped = new Counter({
    name: "outpost_tunnel_spool_dropped_total",
    help: "Spooled envelopes dropped undelivered, by reason (max_age, max_bytes, rejected by the ingest, dsn_not_allowed since it was spooled)",
    labelNames: ["reason"] as const,
    registers,
  });
  const circuit = new Gauge({
    name: "outpost_tunnel_circuit_state",
    help: "The tunnel's circuit to the Sentry ingest: 1 for the current state (closed, open, half_open)",
    labelNames: ["state"] as const,
    registers,
  });
  for (const state of CIRCUIT_STATES) circuit.set({ state }, state === "closed" ? 1 : 0);

  return {
    watchSpool(read: () => SpoolDepth) {
      depth = read;
    },
    observer: {
      spooled() {
        spooled.inc();
      },
      replayed(status: string) {
        replayed.inc({ status });
      },
      spoolDropped(reason: string, count: number) {
        dropped.inc({ reason }, count);
      },
      circuitChanged(state: string) {
        for (const each of CIRCUIT_STATES) circuit.set({ state: each }, each === state ? 1 : 0);
      },
    },
  };
}
