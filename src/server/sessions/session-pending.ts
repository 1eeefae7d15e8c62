import type { SessionStore } from "./session-store";

/**
 * Thrown by a session touched before its store answered (a server-side store, on a page not yet
 * known to use the session): the platform fetches it and runs that middleware or loader again.
 */
export class SessionPending extends Error {
  constructor() {
    super("the session is being fetched");
    this.name = "SessionPending";
  }
}

export const isSessionPending = (error: unknown): error is SessionPending => error instanceof SessionPending;

// Route chains (by pattern) seen touching the session, per store: their requests fetch it before they run.
const touchingChains = new WeakMap<SessionStore, Set<string>>();

export function chainsOf(store: SessionStore): Set<string> {
  let chains = touchingChains.get(store);
  if (!chains) {
    chains = new Set();
    touchingChains.set(store, chains);
  }
  return chains;
}
