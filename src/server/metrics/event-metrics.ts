import { Counter, Gauge, type Registry } from "prom-client";
import type { EventObserver } from "../events/event-service";

const CLOSE_REASONS = ["client", "shutdown", "slow", "limit"] as const;

/**
 * Server-sent events' series: streams open now (read from the event service when scraped), events
 * published, events Redis could not take, and streams closed by reason (a refused one is `limit`).
 */
export function createEventMetrics(registry: Registry) {
  const registers = [registry];
  let openStreams: (() => number) | undefined;
  new Gauge({
    name: "outpost_event_streams",
    help: "Event streams (text/event-stream) open on this process",
    registers,
    collect() {
      this.set(openStreams?.() ?? 0);
    },
  });
  const published = new Counter({
    name: "outpost_events_published_total",
    help: "Events published to a channel from this process",
    registers,
  });
  const publishFailures = new Counter({
    name: "outpost_events_publish_failures_total",
    help: "Published events Redis did not take within REDIS_TIMEOUT_MS (or while down): sent to this process's streams only, not kept for resume",
    registers,
  });
  const closed = new Counter({
    name: "outpost_event_stream_closed_total",
    help: "Event streams closed, by reason: client (left), shutdown (SIGTERM or a dev rebuild), slow (stopped reading past EVENT_STREAM_BUFFER_MAX_BYTES), limit (refused: EVENT_STREAM_MAX_PER_CLIENT or EVENT_STREAM_MAX)",
    labelNames: ["reason"] as const,
    registers,
  });
  const closedBy = Object.fromEntries(
    CLOSE_REASONS.map((reason) => {
      const child = closed.labels({ reason });
      child.inc(0);
      return [reason, child];
    }),
  ) as Record<(typeof CLOSE_REASONS)[number], { inc(): void }>;
  const observer: EventObserver = {
    published: () => published.inc(),
    publishFailed: () => publishFailures.inc(),
    streamClosed: (reason) => closedBy[reason].inc(),
  };
  return {
    eventsObserver: observer,
    /** The number of open streams, read at each scrape. */
    watchEventStreams(read: () => number) {
      openStreams = read;
    },
  };
}
