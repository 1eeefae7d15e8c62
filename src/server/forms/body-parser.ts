import { unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import type { Context, Middleware } from "koa";
import type { ScalarOrArrayFiles } from "koa-body";
import { isSafeMethod } from "../http/methods";
import { refuse } from "../http/refuse";
import { BodyRefusedError, bodyRefusal, tooDeep, tooLarge } from "./body-errors";
import { FORM_TYPE, JSON_TYPE, MULTIPART_TYPE } from "./body-types";
import { nestsDeeperThan } from "./json-depth";
import type { KoaBodyParsers } from "./koa-body-parsers";
import type { UploadPolicy } from "./multipart-guard";

export type { UploadPolicy } from "./multipart-guard";

export interface BodyParserOptions {
  /** Largest body: form fields, JSON, or the fields of a multipart body (`BODY_MAX_BYTES`). */
  maxBytes: number;
  /** Most fields in a form, urlencoded or multipart (`BODY_MAX_FIELDS`); more is 413, never a silent cut. */
  maxFields?: number;
  /** Deepest nesting of arrays and objects in a JSON body (`BODY_MAX_DEPTH`); deeper is 400. */
  maxDepth?: number;
  /**
   * The middleware's only (the page pipeline calls bodyReader with its route's policy itself).
   * What reads this request's body: null when nothing does (a page without an action), so the
   * body is left unread and the page answers for itself (405); `uploads` is the route's opt-in
   * to file parts, none meaning they are refused. When absent, every such request's body is parsed.
   */
  reader?: (ctx: Context) => { uploads?: UploadPolicy } | null;
  /** Where accepted files are written; each is deleted once its response has closed. */
  uploadDir?: string;
  /** Told about every refused body (status and message only: never the body). */
  onRefused?: (ctx: Context, refusal: BodyRefusedError) => void;
}

const DEFAULT_MAX_FIELDS = 1_000;
const DEFAULT_MAX_DEPTH = 64;
const ACCEPTED = `Content-Type must be ${FORM_TYPE}, ${MULTIPART_TYPE} or ${JSON_TYPE}`;

/** Reads a request's body for a route's action (`uploads`: its file policy); true when it refused the body, and answered. */
export type BodyReader = (ctx: Context, uploads: UploadPolicy | undefined) => Promise<boolean>;

/**
 * Parses the body of a state-changing request (a page's POST, a resource route's action) with
 * koa-body into `ctx.request.body` (and accepted files into `ctx.request.files`). The page
 * pipeline calls it after CSRF for an action op that a route's action takes; the tunnel reads
 * its own raw stream. Every refusal is the client's: 400 malformed, 413 too large (declared or
 * counted while chunked), 415 another type or a file part nobody asked for; never a 500.
 */
export function bodyReader(options: Omit<BodyParserOptions, "reader">): BodyReader {
  const { maxBytes } = options;
  const maxFields = options.maxFields ?? DEFAULT_MAX_FIELDS;
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const uploadDir = options.uploadDir ?? tmpdir();
  // Loaded by the first body that is read, not at start-up (see koa-body-parsers.ts).
  let loading: Promise<KoaBodyParsers> | undefined;
  const loadParsers = () =>
    (loading ??= import("./koa-body-parsers").then(({ createKoaBodyParsers }) => createKoaBodyParsers({ maxBytes, maxFields, uploadDir })));

  async function parse(ctx: Context, parsers: KoaBodyParsers, uploads: UploadPolicy | undefined): Promise<void> {
    const declared = ctx.request.length;
    // No body at all (or an empty one): nothing to parse, whatever the type says.
    if (!declared && !ctx.get("Transfer-Encoding")) {
      ctx.request.body = {};
      return;
    }
    const type = ctx.is(FORM_TYPE, MULTIPART_TYPE, JSON_TYPE);
    if (!type) throw new BodyRefusedError(415, ACCEPTED);
    if (type !== MULTIPART_TYPE) {
      if (declared !== undefined && declared > maxBytes) throw tooLarge(maxBytes);
      await parsers.formOrJson(ctx);
      // JSON.parse never recurses, but whatever later writes the value (JSON.stringify, a session) does.
      if (type === JSON_TYPE && nestsDeeperThan(ctx.request.body, maxDepth)) throw tooDeep(maxDepth);
      return;
    }
    const limit = maxBytes + (uploads ? uploads.maxFileBytes * uploads.maxFiles : 0);
    if (declared !== undefined && declared > limit) throw tooLarge(limit);
    // formidable would read a compressed body as if it were plain.
    if (ctx.get("Content-Encoding") && ctx.get("Content-Encoding") !== "identity") {
      throw new BodyRefusedError(415, "Unsupported Content-Encoding for multipart bodies");
    }
    await parsers.multipart(ctx, uploads, limit);
    const files = ctx.request.files;
    if (files) ctx.res.once("close", () => void deleteFiles(files));
  }

  return async (ctx, uploads) => {
    // Outside the try: parsers that fail to load are the server's fault, not a malformed body.
    const parsers = await loadParsers();
    try {
      await parse(ctx, parsers, uploads);
    } catch (error) {
      const refusal = bodyRefusal(error, { maxBytes, maxFields, files: uploads });
      options.onRefused?.(ctx, refusal);
      refuse(ctx, refusal.status, refusal.message);
      return true;
    }
    return false;
  };
}

/** bodyReader as Koa middleware, for every state-changing request whose `reader` wants its body. */
export function bodyParser(options: BodyParserOptions): Middleware {
  const read = bodyReader(options);
  return async (ctx, next) => {
    if (isSafeMethod(ctx.method)) return next();
    const reader = options.reader ? options.reader(ctx) : {};
    if (reader && (await read(ctx, reader.uploads))) return;
    return next();
  };
}

async function deleteFiles(files: ScalarOrArrayFiles): Promise<void> {
  const paths = Object.values(files).flatMap((entry) => (Array.isArray(entry) ? entry : [entry]).map((file) => file.filepath));
  await Promise.all(paths.map((filepath) => unlink(filepath).catch(() => {})));
}
