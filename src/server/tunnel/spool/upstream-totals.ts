/** Envelopes and bytes waiting per upstream origin, kept as they are written and removed. */
export class UpstreamTotals {
  readonly #totals = new Map<string, { envelopes: number; bytes: number }>();

  add(origin: string, envelopes: number, bytes: number): void {
    const total = this.#totals.get(origin) ?? { envelopes: 0, bytes: 0 };
    total.envelopes += envelopes;
    total.bytes += bytes;
    // An upstream whose backlog is gone is forgotten, so the map holds only those with envelopes.
    if (total.envelopes <= 0) this.#totals.delete(origin);
    else this.#totals.set(origin, total);
  }

  entries(): IterableIterator<[string, { readonly envelopes: number; readonly bytes: number }]> {
    return this.#totals.entries();
  }
}
