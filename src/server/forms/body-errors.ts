/** A body we refuse, with the status and a message that is safe to show the client. */
export class BodyRefusedError extends Error {
  override name = "BodyRefusedError";
  readonly status: 400 | 413 | 415;

  constructor(status: 400 | 413 | 415, message: string) {
    super(message);
    this.status = status;
  }
}

export const tooLarge = (maxBytes: number) =>
  new BodyRefusedError(413, `Request body larger than ${maxBytes} bytes`);

/**
 * What koa-body's parsers (co-body, formidable) threw, as the client's mistake: too large, a
 * type or encoding we do not read, or else malformed. Their own statuses include 500s (a stream
 * in an unexpected state, a failed formidable plugin) that a client's body must never cause.
 */
export function bodyRefusal(error: unknown, maxBytes: number): BodyRefusedError {
  if (error instanceof BodyRefusedError) return error;
  const { status, statusCode, httpCode, type } = (error ?? {}) as Record<string, unknown>;
  const code = status ?? statusCode ?? httpCode;
  if (code === 413 || type === "entity.too.large") return tooLarge(maxBytes);
  // inflation's unknown Content-Encoding, raw-body's unknown charset.
  if (code === 415) return new BodyRefusedError(415, "Unsupported Content-Encoding or charset");
  return new BodyRefusedError(400, "Malformed request body");
}
