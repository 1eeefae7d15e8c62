/** Why a stream was refused: too many from one client address, too many on this process, or it is shutting down. */
export type StreamRefusal = "client" | "process" | "closing";

/**
 * Open streams counted per client address (the key the rate limits use: TRUST_PROXY and the
 * IPv6 network included) and per process, on this replica.
 */
export class StreamLimits {
  readonly #perClient = new Map<string, number>();
  readonly #maxPerClient: number;
  readonly #max: number;
  #total = 0;

  constructor(maxPerClient: number, max: number) {
    this.#maxPerClient = maxPerClient;
    this.#max = max;
  }

  get total(): number {
    return this.#total;
  }

  /** Counts one stream for `key`, or says why it may not open. */
  admit(key: string): Exclude<StreamRefusal, "closing"> | undefined {
    if (this.#total >= this.#max) return "process";
    const open = this.#perClient.get(key) ?? 0;
    if (open >= this.#maxPerClient) return "client";
    this.#perClient.set(key, open + 1);
    this.#total += 1;
    return undefined;
  }

  release(key: string): void {
    const open = this.#perClient.get(key) ?? 0;
    if (open <= 1) this.#perClient.delete(key);
    else this.#perClient.set(key, open - 1);
    this.#total -= 1;
  }
}

/** The answer to a refused stream: 429 for one client's, 503 for the process's, each with Retry-After. */
export function refusalResponse(refusal: StreamRefusal, limits: { maxPerClient: number; max: number }): Response {
  const [status, retryAfter, message] =
    refusal === "client"
      ? [429, 10, `Too many open event streams from this address (at most ${limits.maxPerClient}, EVENT_STREAM_MAX_PER_CLIENT): close one, then try again.`]
      : refusal === "process"
        ? [503, 5, `This server holds as many event streams as it may (EVENT_STREAM_MAX ${limits.max}): try again shortly.`]
        : [503, 1, "This server is shutting down: try again (another replica answers)."];
  return new Response(message, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Retry-After": String(retryAfter), "Cache-Control": "no-store" },
  });
}
