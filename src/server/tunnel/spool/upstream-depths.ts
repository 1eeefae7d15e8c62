import type { SpoolStats, UpstreamDepth } from "./types";

/** The spool's depth per upstream label, from its depth per origin; origins that share a label (`other`) are added up. */
export function depthsByLabel(byOrigin: Iterable<[string, SpoolStats]>, label: (origin: string) => string): UpstreamDepth[] {
  const depths = new Map<string, UpstreamDepth>();
  for (const [origin, stats] of byOrigin) {
    const upstream = label(origin);
    const known = depths.get(upstream);
    if (!known) {
      depths.set(upstream, { upstream, ...stats });
      continue;
    }
    known.envelopes += stats.envelopes;
    known.bytes += stats.bytes;
    known.oldestReceivedAt = Math.min(known.oldestReceivedAt ?? Infinity, stats.oldestReceivedAt ?? Infinity);
  }
  return [...depths.values()];
}
