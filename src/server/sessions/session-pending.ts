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
