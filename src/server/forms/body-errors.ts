/** A body we refuse, with the status and a message that is safe to show the client. */
export class BodyRefusedError extends Error {
  override name = "BodyRefusedError";
  readonly status: 400 | 413 | 415;

  constructor(status: 400 | 413 | 415, message: string) {
    super(message);
    this.status = status;
  }
}

/** The limits a body is read under, for refusals that name the one that was hit. */
export interface BodyLimits {
  /** Largest body (a multipart body's fields); the multipart guard counts files on top. */
  maxBytes: number;
  maxFields: number;
  /** The route's file limits, when it accepts files. */
  files?: { maxFileBytes: number; maxFiles: number };
}

export const tooLarge = (maxBytes: number) => new BodyRefusedError(413, `Request body larger than ${maxBytes} bytes`);
export const tooManyFields = (maxFields: number) => new BodyRefusedError(413, `More than ${maxFields} form fields`);
export const tooDeep = (maxDepth: number) => new BodyRefusedError(400, `JSON nested more than ${maxDepth} levels deep`);

// formidable's error codes for the limits it enforces itself.
const FORMIDABLE_FIELDS = 1007;
const FORMIDABLE_FIELDS_SIZE = 1006;
const FORMIDABLE_FILE_SIZE = 1016;
const FORMIDABLE_TOTAL_FILE_SIZE = 1009;
const FORMIDABLE_FILES = 1015;

function formidableRefusal(code: unknown, limits: BodyLimits): BodyRefusedError | undefined {
  const { files } = limits;
  if (code === FORMIDABLE_FIELDS) return tooManyFields(limits.maxFields);
  if (code === FORMIDABLE_FIELDS_SIZE) return tooLarge(limits.maxBytes);
  if (code === FORMIDABLE_FILE_SIZE && files) return new BodyRefusedError(413, `A file larger than ${files.maxFileBytes} bytes`);
  if (code === FORMIDABLE_TOTAL_FILE_SIZE && files) return new BodyRefusedError(413, `Files larger than ${files.maxFileBytes * files.maxFiles} bytes in total`);
  if (code === FORMIDABLE_FILES && files) return new BodyRefusedError(413, `More than ${files.maxFiles} files`);
  return undefined;
}

/**
 * What koa-body's parsers (co-body, qs, formidable) threw, as the client's mistake: a limit hit
 * (named), a Content-Encoding we do not read, or else malformed. Their own statuses include
 * 500s (a stream in an unexpected state, a failed formidable plugin) that a client's body must
 * never cause.
 */
export function bodyRefusal(error: unknown, limits: BodyLimits): BodyRefusedError {
  if (error instanceof BodyRefusedError) return error;
  const { status, statusCode, httpCode, type, code } = (error ?? {}) as Record<string, unknown>;
  const limit = formidableRefusal(code, limits);
  if (limit) return limit;
  // qs, told to throw rather than drop the fields past its parameter limit.
  if (error instanceof RangeError && error.message.startsWith("Parameter limit exceeded")) return tooManyFields(limits.maxFields);
  const answer = status ?? statusCode ?? httpCode;
  if (answer === 413 || type === "entity.too.large") return tooLarge(limits.maxBytes);
  // inflation's unknown Content-Encoding (the charset parameter is never read: bodies are UTF-8).
  if (answer === 415) return new BodyRefusedError(415, "Unsupported Content-Encoding");
  return new BodyRefusedError(400, "Malformed request body");
}
