import type Database from "better-sqlite3";
import type { TunnelLogger } from "../contract/types";
import { heldStatement } from "./sqlite-handles";
import { openStoreFile } from "./store-file";
import type { RetrySchedule, SpooledItems, SpoolEntry, SpoolStats, StoredEnvelope } from "./types";
import { UpstreamTotals } from "./upstream-totals";

export { SpoolOpenError } from "./store-file";

/** What a deletion returns of an envelope. */
interface Removed {
  bytes: number;
  origin: string;
  path: string;
  items: string;
}

/** How many envelopes a drop took from each upstream origin. */
export type DroppedByOrigin = ReadonlyMap<string, number>;

/** A dropped envelope as its client report needs it: its upstream, DSN and items per category. */
export interface DroppedItems extends SpooledItems {
  origin: string;
  path: string;
}

const droppedItems = new WeakMap<DroppedByOrigin, DroppedItems[]>();

/** The dropped envelopes whose DSN and items were recorded (see SpoolEntry.items). */
export const droppedItemsOf = (dropped: DroppedByOrigin): DroppedItems[] => droppedItems.get(dropped) ?? [];

function byOrigin(removed: readonly Removed[]): DroppedByOrigin {
  const counts = new Map<string, number>();
  const items: DroppedItems[] = [];
  for (const { origin, path, items: recorded } of removed) {
    counts.set(origin, (counts.get(origin) ?? 0) + 1);
    if (recorded) {
      try {
        items.push({ origin, path, ...(JSON.parse(recorded) as SpooledItems) });
      } catch {
        // A damaged record only costs its report.
      }
    }
  }
  droppedItems.set(counts, items);
  return counts;
}

interface Row {
  id: number;
  received_at: number;
  origin: string;
  path: string;
  headers: string;
  categories: string;
  bytes: number;
  attempts: number;
  next_attempt_at: number;
}

/** Which envelopes a scan reads: all, those that never failed, or those that did. */
export type ScanTier = "all" | "fresh" | "retrying";

const SCAN_COLUMNS = "id, received_at, origin, path, headers, categories, bytes, attempts, next_attempt_at";
const SCAN_FILTERS: Record<ScanTier, string> = { all: "", fresh: "AND attempts = 0", retrying: "AND attempts > 0" };

/** The spool's SQLite database: envelopes in arrival order, with running totals for the caps. */
export class SpoolStore {
  readonly database: Database.Database;
  #envelopes: number;
  #bytes: number;
  readonly #byOrigin = new UpstreamTotals();
  readonly #insert;
  readonly #remove;
  readonly #oldest;
  readonly #oldestOf;
  readonly #after: Record<ScanTier, Database.Statement>;
  readonly #afterOf: Record<ScanTier, Database.Statement>;
  readonly #body;
  readonly #olderThan;
  readonly #reschedule;

  /** Opens (creating) `dir/spool.sqlite`; a corrupt one is moved aside with an error log and replaced. */
  static open(dir: string, logger?: TunnelLogger): SpoolStore {
    return openStoreFile(dir, logger, (database) => new SpoolStore(database));
  }

  private constructor(database: Database.Database) {
    this.database = database;
    this.#insert = heldStatement(
      database,
      "INSERT INTO envelopes (received_at, origin, path, headers, categories, items, bytes, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    );
    this.#remove = heldStatement(database, "DELETE FROM envelopes WHERE id = ? RETURNING bytes, origin, path, items");
    this.#oldest = heldStatement(database, "SELECT id, received_at FROM envelopes ORDER BY id LIMIT 1");
    this.#oldestOf = heldStatement(database, "SELECT received_at FROM envelopes WHERE origin = ? ORDER BY id LIMIT 1").pluck();
    const scan = (tier: ScanTier, where = "") =>
      heldStatement(database, `SELECT ${SCAN_COLUMNS} FROM envelopes WHERE ${where}id > ? ${SCAN_FILTERS[tier]} ORDER BY id LIMIT ?`);
    this.#after = { all: scan("all"), fresh: scan("fresh"), retrying: scan("retrying") };
    const scanOf = (tier: ScanTier) => scan(tier, "origin = ? AND ");
    this.#afterOf = { all: scanOf("all"), fresh: scanOf("fresh"), retrying: scanOf("retrying") };
    this.#body = heldStatement(database, "SELECT body FROM envelopes WHERE id = ?").pluck();
    this.#olderThan = heldStatement(database, "DELETE FROM envelopes WHERE received_at < ? RETURNING bytes, origin, path, items");
    this.#reschedule = heldStatement(database, "UPDATE envelopes SET attempts = ?, next_attempt_at = ? WHERE id = ?");
    const totals = heldStatement(database, "SELECT count(*) AS n, coalesce(sum(bytes), 0) AS bytes FROM envelopes").get() as {
      n: number;
      bytes: number;
    };
    this.#envelopes = totals.n;
    this.#bytes = totals.bytes;
    for (const row of heldStatement(database, "SELECT origin, count(*) AS n, sum(bytes) AS bytes FROM envelopes GROUP BY origin").all() as {
      origin: string;
      n: number;
      bytes: number;
    }[]) {
      this.#byOrigin.add(row.origin, row.n, row.bytes);
    }
  }

  stats(): SpoolStats {
    const oldest = this.#oldest.get() as { received_at: number } | undefined;
    return { envelopes: this.#envelopes, bytes: this.#bytes, oldestReceivedAt: oldest?.received_at };
  }

  /** The same, for each upstream origin with envelopes waiting. */
  statsByOrigin(): Map<string, SpoolStats> {
    const stats = new Map<string, SpoolStats>();
    for (const [origin, { envelopes, bytes }] of this.#byOrigin.entries()) {
      stats.set(origin, { envelopes, bytes, oldestReceivedAt: this.#oldestOf.get(origin) as number | undefined });
    }
    return stats;
  }

  /** The upstream origins with envelopes waiting. */
  origins(): string[] {
    return [...this.#byOrigin.entries()].map(([origin]) => origin);
  }

  /**
   * Writes envelopes in one transaction (one fsync), dropping the oldest first to stay within
   * `maxBytes`; returns how many were dropped, by origin. The entries must fit in `maxBytes` together.
   */
  insert(entries: readonly SpoolEntry[], maxBytes: number): DroppedByOrigin {
    const incoming = entries.reduce((sum, entry) => sum + entry.body.length, 0);
    if (incoming > maxBytes) throw new RangeError("spool insert: the envelopes exceed the spool's byte cap together");
    // Totals change only once the transaction has committed.
    const dropped = this.database.transaction((): Removed[] => {
      const gone = this.#dropOldest(maxBytes - incoming);
      for (const { receivedAt, upstream, headers, categories, items, body } of entries) {
        const recorded = items ? JSON.stringify(items) : "";
        this.#insert.run(receivedAt, upstream.origin, upstream.path, JSON.stringify(headers), categories.join(","), recorded, body.length, body);
      }
      return gone;
    })();
    this.#envelopes += entries.length;
    this.#bytes += incoming;
    for (const { upstream, body } of entries) this.#byOrigin.add(upstream.origin, 1, body.length);
    this.#forget(dropped);
    return byOrigin(dropped);
  }

  /** Drops the oldest envelopes until the spool holds at most `maxBytes` (a cap lowered since they came); returns how many, by origin. */
  trimTo(maxBytes: number): DroppedByOrigin {
    const dropped = this.database.transaction(() => this.#dropOldest(maxBytes))();
    this.#forget(dropped);
    return byOrigin(dropped);
  }

  /**
   * Removes delivered or dropped envelopes, in one transaction, without waiting for the disk: a
   * removal lost to a crash only means a duplicate delivery (at least once), and the next
   * commit with synchronous=FULL syncs it along.
   */
  remove(ids: readonly number[]): void {
    const removed = this.#withoutFsync(() => ids.map((id) => this.#delete(id)).filter((row) => row !== undefined));
    this.#forget(removed);
  }

  /**
   * Sets envelopes' failed-attempt counts and next attempt times, in order, without waiting for
   * the disk: a change lost to a crash only means an earlier retry.
   */
  reschedule(retries: readonly RetrySchedule[]): void {
    this.#withoutFsync(() => {
      for (const { id, attempts, nextAttemptAt } of retries) this.#reschedule.run(attempts, nextAttemptAt, id);
    });
  }

  /** Drops envelopes received before `cutoff` (ms since the epoch); returns how many. */
  removeOlderThan(cutoff: number): DroppedByOrigin {
    const removed = this.#olderThan.all(cutoff) as Removed[];
    this.#forget(removed);
    return byOrigin(removed);
  }

  /** Up to `limit` envelopes of `tier` (of one upstream `origin`, if given) after `id`, oldest first, without their bodies. */
  after(id: number, limit: number, tier: ScanTier = "all", origin?: string): StoredEnvelope[] {
    const rows = origin === undefined ? this.#after[tier].all(id, limit) : this.#afterOf[tier].all(origin, id, limit);
    return (rows as Row[]).map((row) => ({
      id: row.id,
      receivedAt: row.received_at,
      upstream: { origin: row.origin, path: row.path },
      headers: JSON.parse(row.headers) as Record<string, string>,
      categories: row.categories.split(","),
      bytes: row.bytes,
      attempts: row.attempts,
      nextAttemptAt: row.next_attempt_at,
    }));
  }

  /** undefined when it was removed meanwhile (delivered, or dropped by a cap). */
  body(id: number): Buffer | undefined {
    return this.#body.get(id) as Buffer | undefined;
  }

  close(): void {
    if (this.database.open) this.database.close();
  }

  /** Inside a transaction: deletes the oldest until at most `room` bytes are left; what it deleted. */
  #dropOldest(room: number): Removed[] {
    const removed: Removed[] = [];
    let bytes = 0;
    while (this.#bytes - bytes > room && this.#envelopes - removed.length > 0) {
      const gone = this.#delete((this.#oldest.get() as { id: number }).id);
      if (!gone) break;
      removed.push(gone);
      bytes += gone.bytes;
    }
    return removed;
  }

  /** The removed envelope's size and upstream, or undefined if it was already gone. */
  #delete(id: number): Removed | undefined {
    return this.#remove.get(id) as Removed | undefined;
  }

  /** One transaction committed with synchronous=NORMAL: durable at the next full commit. */
  #withoutFsync<T>(write: () => T): T {
    this.database.exec("PRAGMA synchronous = NORMAL");
    try {
      return this.database.transaction(write)();
    } finally {
      this.database.exec("PRAGMA synchronous = FULL");
    }
  }

  #forget(removed: readonly Removed[]): void {
    this.#envelopes -= removed.length;
    for (const { bytes, origin } of removed) {
      this.#bytes -= bytes;
      this.#byOrigin.add(origin, -1, -bytes);
    }
  }
}
