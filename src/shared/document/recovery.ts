/**
 * The global the document's recovery script defines: loads the document again, once (the
 * guard lives in the history entry's state, so it survives the reload), and says whether it
 * did. False on a document that answered a POST, which a reload would submit again.
 * docs/decisions/0068-pages-recover-from-missing-scripts.md
 */
export const RELOAD_ONCE_GLOBAL = "__OUTPOST_RELOAD__";

/** The history state's field holding when the document was last reloaded to recover (ms since the epoch). */
export const RELOADED_AT_FIELD = "outpostReloadedAt";

/** A reload within this long of the last one is refused: the page stays as it is (it works without JavaScript). */
export const RELOAD_GUARD_MS = 60_000;

/** How many times the entry script is inserted again after it failed, before the reload. */
export const ENTRY_RETRIES = 2;
/** The entry's n-th retry waits n times this long. */
export const ENTRY_RETRY_STEP_MS = 300;
