/** A request on its way: its abort signal, and whether it is still the newest of its channel. */
export interface Ticket {
  readonly signal: AbortSignal;
  isCurrent(): boolean;
}

/** The page's channel: navigations, submissions and revalidations, where the newest one wins. */
export const PAGE = "page";
export const fetcherChannel = (key: string) => `fetcher:${key}`;

/**
 * The one place requests start: a new request on a channel aborts the one before it, so an
 * older answer arriving late is never shown. Each fetcher has a channel of its own.
 */
export class Requests {
  readonly #current = new Map<string, AbortController>();

  start(channel: string): Ticket {
    this.#current.get(channel)?.abort();
    const controller = new AbortController();
    this.#current.set(channel, controller);
    return { signal: controller.signal, isCurrent: () => this.#current.get(channel) === controller };
  }

  abort(channel: string): void {
    this.#current.get(channel)?.abort();
    this.#current.delete(channel);
  }
}
