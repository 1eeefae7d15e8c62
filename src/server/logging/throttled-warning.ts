import type { Logger } from "./logger";

/** At most one line per this long: an outage's every request must not each write one. */
const THROTTLED_WARNING_MS = 10_000;

/**
 * A warning logged at most once per `intervalMs`; the next line says how many were held back
 * since (`heldBack`). Each occurrence is still counted where it matters, in a metric.
 */
export function throttledWarning(logger: Pick<Logger, "warn">, message: string, intervalMs = THROTTLED_WARNING_MS, now: () => number = Date.now) {
  let last = Number.NEGATIVE_INFINITY;
  let heldBack = 0;
  return (fields: Record<string, unknown>): void => {
    const at = now();
    if (at - last < intervalMs) {
      heldBack += 1;
      return;
    }
    last = at;
    logger.warn(heldBack > 0 ? { ...fields, heldBack } : fields, message);
    heldBack = 0;
  };
}
