import { unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { multipart } from "formidable";
import type { Context, Middleware } from "koa";
import { HttpMethodEnum, koaBody, type ScalarOrArrayFiles } from "koa-body";
import { refuse } from "../http/refuse";
import { BodyRefusedError, bodyRefusal, tooLarge } from "./body-errors";
import { multipartGuard, type UploadPolicy } from "./multipart-guard";

export type { UploadPolicy } from "./multipart-guard";

export const FORM_TYPE = "application/x-www-form-urlencoded";
export const MULTIPART_TYPE = "multipart/form-data";
export const JSON_TYPE = "application/json";

export interface BodyParserOptions {
  /** Largest body: form fields, JSON, or the fields of a multipart body (`BODY_MAX_BYTES`). */
  maxBytes: number;
  /**
   * What reads this request's body: null when nothing does (a page without an action), so the
   * body is left unread and the page answers for itself (405); `uploads` is the route's opt-in
   * to file parts, none meaning they are refused. Every POST is parsed when absent.
   */
  reader?: (ctx: Context) => { uploads?: UploadPolicy } | null;
  /** Where accepted files are written; each is deleted once its response has closed. */
  uploadDir?: string;
  /** Told about every refused body (status and message only: never the body). */
  onRefused?: (ctx: Context, refusal: BodyRefusedError) => void;
}

const ACCEPTED = `Content-Type must be ${FORM_TYPE}, ${MULTIPART_TYPE} or ${JSON_TYPE}`;
const done = async () => {};

/**
 * Parses POST bodies with koa-body into `ctx.request.body` (and accepted files into
 * `ctx.request.files`). Mounted ahead of the pages only, after the tunnel, which reads its own
 * raw stream. Every refusal is the client's: 400 malformed, 413 too large (declared or counted
 * while chunked), 415 another type or a file part nobody asked for; never a 500.
 */
export function bodyParser(options: BodyParserOptions): Middleware {
  const { maxBytes } = options;
  const uploadDir = options.uploadDir ?? tmpdir();
  const parseFormOrJson = koaBody({
    json: true,
    urlencoded: true,
    multipart: false,
    text: false,
    jsonStrict: true,
    jsonLimit: maxBytes,
    formLimit: maxBytes,
    jsonTypes: [JSON_TYPE],
    urlencodedTypes: [FORM_TYPE],
    parsedMethods: [HttpMethodEnum.POST],
  });

  /** One koa-body per multipart request: its limits depend on the route's upload policy. */
  const parseMultipart = (ctx: Context, uploads: UploadPolicy | undefined, limit: number) =>
    koaBody({
      json: false,
      urlencoded: false,
      text: false,
      multipart: true,
      multipartTypes: [MULTIPART_TYPE],
      parsedMethods: [HttpMethodEnum.POST],
      formidable: {
        uploadDir,
        maxFieldsSize: maxBytes,
        maxFiles: uploads?.maxFiles ?? 0,
        maxFileSize: uploads?.maxFileBytes ?? 1,
        maxTotalFileSize: uploads ? uploads.maxFileBytes * uploads.maxFiles : 1,
        // A file input left empty still sends an empty file part.
        allowEmptyFiles: true,
        minFileSize: 0,
        enabledPlugins: [multipartGuard(limit, uploads), multipart],
      },
    })(ctx, done);

  async function parse(ctx: Context, uploads: UploadPolicy | undefined): Promise<void> {
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
      await parseFormOrJson(ctx, done);
      return;
    }
    const limit = maxBytes + (uploads ? uploads.maxFileBytes * uploads.maxFiles : 0);
    if (declared !== undefined && declared > limit) throw tooLarge(limit);
    // formidable would read a compressed body as if it were plain.
    if (ctx.get("Content-Encoding") && ctx.get("Content-Encoding") !== "identity") {
      throw new BodyRefusedError(415, "Unsupported Content-Encoding for multipart bodies");
    }
    await parseMultipart(ctx, uploads, limit);
    const files = ctx.request.files;
    if (files) ctx.res.once("close", () => void deleteFiles(files));
  }

  return async (ctx, next) => {
    if (ctx.method !== "POST") return next();
    const reader = options.reader ? options.reader(ctx) : {};
    if (!reader) return next();
    try {
      await parse(ctx, reader.uploads);
    } catch (error) {
      const refusal = bodyRefusal(error, maxBytes);
      options.onRefused?.(ctx, refusal);
      refuse(ctx, refusal.status, refusal.message);
      return;
    }
    return next();
  };
}

async function deleteFiles(files: ScalarOrArrayFiles): Promise<void> {
  const paths = Object.values(files).flatMap((entry) => (Array.isArray(entry) ? entry : [entry]).map((file) => file.filepath));
  await Promise.all(paths.map((filepath) => unlink(filepath).catch(() => {})));
}
