/** What ioredis hands an error listener or a rejected command: a reply error, a socket error or its own. */
interface RedisError {
  message?: string;
  code?: string;
  command?: { name?: string };
}

/**
 * Why Redis is not answering, in words an operator acts on. Built from the reply's error prefix
 * and the socket's error code only: an error's full message or its command may carry the host,
 * the keys or (for AUTH) the password, so neither is ever logged.
 */
export function describeRedisFailure(error: unknown, timeoutMs: number): string {
  const { message = "", code } = (error ?? {}) as RedisError;
  if (/^OOM\b/.test(message)) return "out of memory (OOM): Redis refuses writes (its used memory is over maxmemory, with the noeviction policy)";
  if (/^(NOAUTH|WRONGPASS)\b/.test(message)) return "authentication failed (NOAUTH/WRONGPASS): check the user and password in REDIS_URL";
  if (/^NOPERM\b/.test(message)) return "permission denied (NOPERM): REDIS_URL's user may not run Outpost's commands";
  if (/^READONLY\b/.test(message)) return "read-only (READONLY): REDIS_URL names a replica, not the primary";
  if (/^LOADING\b/.test(message)) return "loading (LOADING): Redis is still loading its data set";
  if (message === "Command timed out") return `timed out: no answer within REDIS_TIMEOUT_MS (${timeoutMs} ms)`;
  if (code === "ECONNREFUSED") return "connection refused";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "host not found";
  if (code === "ETIMEDOUT") return "connect timed out";
  if (code === "ECONNRESET" || code === "EPIPE") return "connection reset";
  if (code) return `network error ${code}`;
  const prefix = /^[A-Z]{2,}\b/.exec(message)?.[0];
  return prefix ? `Redis answered ${prefix}` : "connection lost";
}

/** Whether ioredis's error is the database in REDIS_URL refused at connect (SELECT failed). */
export function isDatabaseRefused(error: unknown): boolean {
  return (error as RedisError | undefined)?.command?.name === "select";
}

/** The start-up error for a database the server refuses; names the number, never the URL. */
export function databaseRefusedMessage(error: unknown, database: number): string {
  const { message = "" } = error as RedisError;
  const why = /out of range/i.test(message)
    ? `which this Redis does not have (its "databases" setting decides how many: 16, numbered 0 to 15, by default)`
    : /cluster/i.test(message)
      ? "but this Redis runs in cluster mode, which has database 0 alone"
      : `which this Redis refuses (${/^[A-Z]{2,}\b/.exec(message)?.[0] ?? "SELECT failed"})`;
  return `names database ${database}, ${why}; change the number after the last "/" of REDIS_URL`;
}
