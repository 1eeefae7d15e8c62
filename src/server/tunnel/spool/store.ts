import { copyFileSync, existsSync, linkSync, mkdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import type Database from "better-sqlite3";
import type { TunnelLogger } from "../types";
import { migrate } from "./schema";
import { heldStatement, openHeldDatabase, readPragma } from "./sqlite-handles";
import type { RetrySchedule, SpoolEntry, SpoolStats, StoredEnvelope } from "./types";

const FILE = "spool.sqlite";
const CORRUPT_CODES = new Set(["SQLITE_CORRUPT", "SQLITE_NOTADB"]);

/** The spool directory cannot be used at all; a start-up error. */
export class SpoolOpenError extends Error {
  override name = "SpoolOpenError";
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

/**
 * WAL with synchronous=FULL: a commit is on disk (the WAL fsynced) before add() resolves, so an
 * acknowledged envelope survives SIGKILL and a power cut. EXCLUSIVE locking holds the file for
 * this process alone: a second server on the same directory fails at start instead of
 * replaying the same envelopes twice.
 */
function openDatabase(file: string): Database.Database {
  // No busy wait: the lock is held by another live process, or by nobody.
  const db = openHeldDatabase(file, { timeout: 0 });
  try {
    db.exec("PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL");
    const check = readPragma(db, "quick_check");
    if (check !== "ok") throw Object.assign(new Error(`quick_check: ${String(check)}`), { code: "SQLITE_CORRUPT" });
    migrate(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Which envelopes a scan reads: all, those that never failed, or those that did. */
export type ScanTier = "all" | "fresh" | "retrying";

const SCAN_COLUMNS = "id, received_at, origin, path, headers, categories, bytes, attempts, next_attempt_at";
const SCAN_FILTERS: Record<ScanTier, string> = { all: "", fresh: "AND attempts = 0", retrying: "AND attempts > 0" };

/** A second name for the store's WAL, if it has one (a copy where links are not supported). */
function keepWal(file: string): string | undefined {
  const wal = `${file}-wal`;
  if (!existsSync(wal)) return undefined;
  const kept = `${wal}.kept`;
  rmSync(kept, { force: true });
  try {
    linkSync(wal, kept);
  } catch {
    copyFileSync(wal, kept);
  }
  return kept;
}

/** The spool's SQLite database: envelopes in arrival order, with running totals for the caps. */
export class SpoolStore {
  readonly database: Database.Database;
  #envelopes: number;
  #bytes: number;
  readonly #insert;
  readonly #remove;
  readonly #oldest;
  readonly #after: Record<ScanTier, Database.Statement>;
  readonly #body;
  readonly #olderThan;
  readonly #reschedule;

  /** Opens (creating) `dir/spool.sqlite`; a corrupt one is moved aside with an error log and replaced. */
  static open(dir: string, logger?: TunnelLogger): SpoolStore {
    const file = path.join(path.resolve(dir), FILE);
    try {
      mkdirSync(path.dirname(file), { recursive: true });
      // The WAL may hold acknowledged envelopes not yet checkpointed, and SQLite deletes it when
      // it closes a store found corrupt: a link to it goes aside with the store.
      const wal = keepWal(file);
      try {
        const store = new SpoolStore(openDatabase(file));
        if (wal) rmSync(wal, { force: true });
        return store;
      } catch (error) {
        if (!CORRUPT_CODES.has((error as { code?: string }).code ?? "")) throw error;
        const aside = `${file}.corrupt-${Date.now()}`;
        renameSync(file, aside);
        if (wal) renameSync(wal, `${aside}-wal`);
        for (const suffix of ["-wal", "-shm"]) rmSync(file + suffix, { force: true });
        logger?.error({ file, movedTo: aside, err: (error as Error).message }, "sentry tunnel spool: store is corrupt; moved aside, starting a fresh one");
        return new SpoolStore(openDatabase(file));
      }
    } catch (error) {
      throw new SpoolOpenError(`spool directory ${dir} cannot be opened: ${(error as Error).message}`);
    }
  }

  private constructor(database: Database.Database) {
    this.database = database;
    this.#insert = heldStatement(
      database,
      "INSERT INTO envelopes (received_at, origin, path, headers, categories, bytes, body) VALUES (?, ?, ?, ?, ?, ?, ?)",
    );
    this.#remove = heldStatement(database, "DELETE FROM envelopes WHERE id = ? RETURNING bytes");
    this.#oldest = heldStatement(database, "SELECT id, received_at FROM envelopes ORDER BY id LIMIT 1");
    const scan = (tier: ScanTier) =>
      heldStatement(database, `SELECT ${SCAN_COLUMNS} FROM envelopes WHERE id > ? ${SCAN_FILTERS[tier]} ORDER BY id LIMIT ?`);
    this.#after = { all: scan("all"), fresh: scan("fresh"), retrying: scan("retrying") };
    this.#body = heldStatement(database, "SELECT body FROM envelopes WHERE id = ?").pluck();
    this.#olderThan = heldStatement(database, "DELETE FROM envelopes WHERE received_at < ? RETURNING bytes").pluck();
    this.#reschedule = heldStatement(database, "UPDATE envelopes SET attempts = ?, next_attempt_at = ? WHERE id = ?");
    const totals = heldStatement(database, "SELECT count(*) AS n, coalesce(sum(bytes), 0) AS bytes FROM envelopes").get() as {
      n: number;
      bytes: number;
    };
    this.#envelopes = totals.n;
    this.#bytes = totals.bytes;
  }

  stats(): SpoolStats {
    const oldest = this.#oldest.get() as { received_at: number } | undefined;
    return { envelopes: this.#envelopes, bytes: this.#bytes, oldestReceivedAt: oldest?.received_at };
  }

  /**
   * Writes envelopes in one transaction (one fsync), dropping the oldest first to stay within
   * `maxBytes`; returns how many were dropped. The entries must fit in `maxBytes` together.
   */
  insert(entries: readonly SpoolEntry[], maxBytes: number): number {
    const incoming = entries.reduce((sum, entry) => sum + entry.body.length, 0);
    if (incoming > maxBytes) throw new RangeError("spool insert: the envelopes exceed the spool's byte cap together");
    // Totals change only once the transaction has committed.
    const [count, bytes] = this.database.transaction((): [number, number] => {
      const dropped = this.#dropOldest(maxBytes - incoming);
      for (const { receivedAt, upstream, headers, categories, body } of entries) {
        this.#insert.run(receivedAt, upstream.origin, upstream.path, JSON.stringify(headers), categories.join(","), body.length, body);
      }
      return dropped;
    })();
    this.#envelopes += entries.length - count;
    this.#bytes += incoming - bytes;
    return count;
  }

  /** Drops the oldest envelopes until the spool holds at most `maxBytes` (a cap lowered since they came); returns how many. */
  trimTo(maxBytes: number): number {
    const [count, bytes] = this.database.transaction(() => this.#dropOldest(maxBytes))();
    this.#envelopes -= count;
    this.#bytes -= bytes;
    return count;
  }

  /**
   * Removes delivered or dropped envelopes, in one transaction, without waiting for the disk: a
   * removal lost to a crash only means a duplicate delivery (at least once), and the next
   * commit with synchronous=FULL syncs it along.
   */
  remove(ids: readonly number[]): void {
    const sizes = this.#withoutFsync(() => ids.map((id) => this.#delete(id)).filter((n) => n !== undefined));
    this.#forget(sizes);
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
  removeOlderThan(cutoff: number): number {
    const sizes = this.#olderThan.all(cutoff) as number[];
    this.#forget(sizes);
    return sizes.length;
  }

  /** Up to `limit` envelopes of `tier` after `id`, oldest first, without their bodies. */
  after(id: number, limit: number, tier: ScanTier = "all"): StoredEnvelope[] {
    return (this.#after[tier].all(id, limit) as Row[]).map((row) => ({
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

  /** Inside a transaction: deletes the oldest until at most `room` bytes are left; [count, bytes] deleted. */
  #dropOldest(room: number): [number, number] {
    let count = 0;
    let bytes = 0;
    while (this.#bytes - bytes > room && this.#envelopes - count > 0) {
      bytes += this.#delete((this.#oldest.get() as { id: number }).id) ?? 0;
      count += 1;
    }
    return [count, bytes];
  }

  /** The removed envelope's size, or undefined if it was already gone. */
  #delete(id: number): number | undefined {
    return (this.#remove.get(id) as { bytes: number } | undefined)?.bytes;
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

  #forget(sizes: readonly number[]): void {
    this.#envelopes -= sizes.length;
    for (const bytes of sizes) this.#bytes -= bytes;
  }
}
