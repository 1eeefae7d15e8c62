import type { RequestDispatcher, TunnelLogger, TunnelObserver } from "../contract/types";
import type { Circuit, UpstreamPass } from "./circuit";
import type { UpstreamRateLimits } from "./rate-limits";
import { isPlainBody, withSentAtMovedForward } from "./sent-at";
import type { SpoolStore } from "./store";
import type { StoredEnvelope } from "./types";

export interface AttemptConfig {
  store: SpoolStore;
  /** Whether an envelope's DSN is still allowed; undefined: not checked again at replay. */
  stillAllowed: ((headers: Record<string, string>, body: Buffer) => Promise<boolean>) | undefined;
  dispatcher: RequestDispatcher;
  circuit: Circuit;
  rateLimits: UpstreamRateLimits;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  observer: TunnelObserver | undefined;
  logger: TunnelLogger | undefined;
}

// Statuses that say the ingest itself is down; anything else it answered means it is up.
export const INGEST_DOWN_STATUSES = new Set([502, 503, 504]);
// Sentry will never take these (malformed, project gone or key disabled, too large): dropped.
const NEVER_ACCEPTED = (status: number) => status >= 400 && status < 500 && status !== 408 && status !== 429;

/**
 * Whom a failure counts against: "failed" (a 5xx the circuit takes for the ingest being up) this
 * envelope; "failed_maybe_down" this envelope unless the circuit opens before the ingest answers
 * again; "ingest_down" nobody.
 */
type Outcome = "delivered" | "refused" | "not_allowed" | "held" | "failed" | "failed_maybe_down" | "ingest_down" | "stopped" | "gone";

export interface Attempt {
  outcome: Outcome;
  /** The ingest's status, `timeout` or `unreachable`; empty when nothing was sent. */
  answer: string;
  /** The circuit's run right after it heard of a "failed_maybe_down". */
  run?: number;
}

/** The body as it goes again: a plain envelope's `sent_at` moved forward by the time it waited, else as stored. */
function replayBody(row: StoredEnvelope, stored: Buffer): Buffer {
  if (!isPlainBody(row.headers)) return stored;
  try {
    return withSentAtMovedForward(stored, Date.now() - row.receivedAt);
  } catch {
    // It is written not to throw; if it ever does, the envelope still goes, as it came.
    return stored;
  }
}

/**
 * One delivery of a spooled envelope and what came of it. `pass` is what the circuit let it
 * through as: only a probe that ends without a verdict reopens it.
 */
export async function replayAttempt(config: AttemptConfig, row: StoredEnvelope, pass: UpstreamPass, signal: AbortSignal): Promise<Attempt> {
  const { store, dispatcher, circuit, rateLimits, observer } = config;
  const stored = store.body(row.id);
  if (!stored) {
    circuit.abandoned(pass);
    return { outcome: "gone", answer: "" };
  }
  if (config.stillAllowed && !(await config.stillAllowed(row.headers, stored))) {
    circuit.abandoned(pass);
    config.logger?.warn({ id: row.id }, "sentry tunnel spool: the envelope's DSN is no longer allowed; dropped unsent");
    return { outcome: "not_allowed", answer: "" };
  }
  const body = replayBody(row, stored);
  let status: number;
  try {
    const response = await dispatcher.request({
      origin: row.upstream.origin,
      path: row.upstream.path,
      method: "POST",
      headers: { ...row.headers, "content-length": String(body.length) },
      body,
      headersTimeout: config.headersTimeoutMs,
      bodyTimeout: config.bodyTimeoutMs,
      signal,
    });
    status = response.statusCode;
    await response.body.dump().catch(() => {});
    rateLimits.update(row.upstream, response);
  } catch (error) {
    if (signal.aborted) {
      circuit.abandoned(pass);
      return { outcome: "stopped", answer: "" };
    }
    const code = (error as { code?: unknown }).code;
    const answer = typeof code === "string" && code.includes("TIMEOUT") ? "timeout" : "unreachable";
    observer?.replayed?.(answer);
    return ingestFailure(circuit, row, answer);
  }
  const answer = String(status);
  observer?.replayed?.(answer);
  if (INGEST_DOWN_STATUSES.has(status)) return ingestFailure(circuit, row, answer);
  circuit.succeeded();
  if (status >= 200 && status < 300) return { outcome: "delivered", answer };
  if (status === 429) return { outcome: "held", answer };
  if (NEVER_ACCEPTED(status)) {
    config.logger?.warn({ id: row.id, status }, "sentry tunnel spool: the ingest refused an envelope; dropped");
    return { outcome: "refused", answer };
  }
  return { outcome: "failed", answer };
}

/**
 * Unreachable, timed out, or 502/503/504: the ingest may be down. The circuit hears only of an
 * envelope's first such failure while it is closed: told of every retry, one envelope the
 * ingest cannot take would open it whenever nothing else is being delivered.
 */
function ingestFailure(circuit: Circuit, row: StoredEnvelope, answer: string): Attempt {
  if (row.attempts === 0 || circuit.state !== "closed") circuit.failed();
  if (circuit.state !== "closed") return { outcome: "ingest_down", answer };
  return { outcome: "failed_maybe_down", answer, run: circuit.run };
}
