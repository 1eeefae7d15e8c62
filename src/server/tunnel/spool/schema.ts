import type Database from "better-sqlite3";
import { readPragma } from "./sqlite-handles";

/**
 * The store's layout, one step per version (`PRAGMA user_version` records how many have run).
 * Steps are only ever appended: a spool written by an earlier release opens and is brought up
 * to date in one transaction. Spools from before versioning are at 0 with the first step's
 * table already there, which is why it says IF NOT EXISTS.
 */
const MIGRATIONS = [
  `CREATE TABLE IF NOT EXISTS envelopes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    received_at INTEGER NOT NULL,
    origin TEXT NOT NULL,
    path TEXT NOT NULL,
    headers TEXT NOT NULL,
    categories TEXT NOT NULL,
    bytes INTEGER NOT NULL,
    body BLOB NOT NULL
  );
  CREATE INDEX IF NOT EXISTS envelopes_received_at ON envelopes (received_at);`,
  // Per-envelope retries, so that one envelope the ingest keeps failing waits on its own.
  `ALTER TABLE envelopes ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE envelopes ADD COLUMN next_attempt_at INTEGER NOT NULL DEFAULT 0;`,
  // Each upstream's backlog is read on its own, oldest first.
  `CREATE INDEX IF NOT EXISTS envelopes_origin ON envelopes (origin, id);`,
  // What a client report says of an envelope dropped by a cap: its DSN and items per category (JSON; '' when unknown).
  `ALTER TABLE envelopes ADD COLUMN items TEXT NOT NULL DEFAULT '';`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Runs the steps the database has not had yet. A newer release's file is left as it is. */
export function migrate(db: Database.Database): void {
  const version = readPragma(db, "user_version") as number;
  if (version >= SCHEMA_VERSION) return;
  db.transaction(() => {
    for (const step of MIGRATIONS.slice(version)) db.exec(step);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
  })();
}
