import Database from "better-sqlite3";

/**
 * better-sqlite3 12 on Node 24 aborts the process when the garbage collector frees one of its
 * objects at the wrong moment (`Assertion failed: (env) != nullptr` in
 * node::RemoveEnvironmentCleanupHook, from Statement::~Statement): Node 24's ObjectWrap
 * destructor needs a current environment. better-sqlite3 13 fixes it but needs Node 22, and we
 * support 20.19 (docs/decisions/0011-sqlite-handles-live-for-the-process.md).
 *
 * So nothing made here is ever freed: every statement and database is held for the process's
 * life (a handful per spool), and repeated pragmas go through exec(), which makes no object.
 * At exit Node does not collect them.
 */
const held = new Set<object>();

/** Opens the database file and holds it for good, closed or not. */
export function openHeldDatabase(file: string, options: Database.Options): Database.Database {
  const db = new Database(file, options);
  held.add(db);
  return db;
}

/** Prepares `sql` and holds the statement for good; prepare each statement once. */
export function heldStatement(db: Database.Database, sql: string): Database.Statement {
  const statement = db.prepare(sql);
  held.add(statement);
  return statement;
}

/** A pragma's single value, read through a held statement (db.pragma() makes one per call). */
export function readPragma(db: Database.Database, name: string): unknown {
  return heldStatement(db, `PRAGMA ${name}`).pluck().get();
}
