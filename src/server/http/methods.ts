/** Methods that change nothing: no CSRF check, no body, a request that may run twice. */
const SAFE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"]);

/** GET, HEAD or OPTIONS: the one test of "does this request change state?" on the server. */
export function isSafeMethod(method: string): boolean {
  return SAFE_METHODS.has(method);
}

/** A read of what a URL shows: HEAD asks what GET would answer. */
export const READ_METHODS = ["GET", "HEAD"] as const;

/** GET or HEAD. */
export function isReadMethod(method: string): boolean {
  return method === "GET" || method === "HEAD";
}
