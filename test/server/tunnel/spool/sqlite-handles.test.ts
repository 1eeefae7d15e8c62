import { writeFileSync } from "node:fs";
import path from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import Database from "better-sqlite3";
import { afterAll, expect, it } from "vitest";
import { SpoolStore } from "#src/server/tunnel/spool";
import { until } from "../harness";
import { spoolDir, spoolEntry } from "./spool-harness";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;
const SENTINEL = "an object nothing holds";
const healthy = spoolDir();
const corrupt = spoolDir();
afterAll(() => {
  healthy.remove();
  corrupt.remove();
});

// better-sqlite3 12 aborts Node 24 when the collector frees one of its statements or databases
// (see sqlite-handles.ts); Node 20 does not, so what is checked here is that none is ever freed.
it("lets the garbage collector free none of the store's SQLite objects, through its whole life", async () => {
  const freed: string[] = [];
  const registry = new FinalizationRegistry((label: string) => freed.push(label));
  const prepare = Database.prototype.prepare;
  // Every statement, including those better-sqlite3 makes itself (pragma(), transactions).
  Database.prototype.prepare = function (this: Database.Database, source: string) {
    const statement = prepare.call(this, source);
    registry.register(statement, source);
    return statement;
  } as typeof prepare;
  try {
    const store = SpoolStore.open(healthy.dir);
    registry.register(store.database, "database");
    store.insert([spoolEntry("a"), spoolEntry("b", { receivedAt: 1 })], 1024 * 1024);
    const [first] = store.after(0, 10);
    store.body(first?.id ?? 0);
    store.reschedule([{ id: first?.id ?? 0, attempts: 1, nextAttemptAt: 0 }]);
    store.remove([first?.id ?? 0]);
    store.removeOlderThan(Date.now() - 1000);
    store.stats();
    store.close();
    // A corrupt file is opened, checked, closed and moved aside.
    writeFileSync(path.join(corrupt.dir, "spool.sqlite"), "not a database, not at all".repeat(100));
    SpoolStore.open(corrupt.dir).close();
  } finally {
    Database.prototype.prepare = prepare;
  }
  // A control in the same registry: once the collector has freed it and its callback ran, the
  // callbacks for every object freed by that collection have run too.
  registry.register({}, SENTINEL);
  await until(() => {
    collectGarbage();
    return freed.includes(SENTINEL);
  });
  expect(freed.filter((label) => label !== SENTINEL)).toEqual([]);
});
