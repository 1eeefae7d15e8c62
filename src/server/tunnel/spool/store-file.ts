import { copyFileSync, existsSync, linkSync, mkdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import type Database from "better-sqlite3";
import type { TunnelLogger } from "../contract/types";
import { migrate } from "./schema";
import { openHeldDatabase, readPragma } from "./sqlite-handles";

const FILE = "spool.sqlite";
const CORRUPT_CODES = new Set(["SQLITE_CORRUPT", "SQLITE_NOTADB"]);

/** The spool directory cannot be used at all; a start-up error. */
export class SpoolOpenError extends Error {
  override name = "SpoolOpenError";
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

/**
 * Opens (creating) `dir/spool.sqlite` and hands it to `make`; a corrupt one is moved aside with
 * an error log and replaced.
 */
export function openStoreFile<T>(dir: string, logger: TunnelLogger | undefined, make: (database: Database.Database) => T): T {
  const file = path.join(path.resolve(dir), FILE);
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    // The WAL may hold acknowledged envelopes not yet checkpointed, and SQLite deletes it when
    // it closes a store found corrupt: a link to it goes aside with the store.
    const wal = keepWal(file);
    try {
      const store = make(openDatabase(file));
      if (wal) rmSync(wal, { force: true });
      return store;
    } catch (error) {
      if (!CORRUPT_CODES.has((error as { code?: string }).code ?? "")) throw error;
      const aside = `${file}.corrupt-${Date.now()}`;
      renameSync(file, aside);
      if (wal) renameSync(wal, `${aside}-wal`);
      for (const suffix of ["-wal", "-shm"]) rmSync(file + suffix, { force: true });
      logger?.error({ file, movedTo: aside, err: (error as Error).message }, "sentry tunnel spool: store is corrupt; moved aside, starting a fresh one");
      return make(openDatabase(file));
    }
  } catch (error) {
    throw new SpoolOpenError(`spool directory ${dir} cannot be opened: ${(error as Error).message}`);
  }
}
