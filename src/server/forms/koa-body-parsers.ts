// koa-body and formidable (with co-body, raw-body, iconv-lite and a mime-db copy: a large part of
// the server bundle) are only needed once a POST body arrives, so body-parser.ts imports this
// module on first use and start-up never compiles them (docs/decisions/0016-start-up-loads-on-first-use.md).
import { multipart } from "formidable";
import type { Context } from "koa";
import { HttpMethodEnum, koaBody } from "koa-body";
import { FORM_TYPE, JSON_TYPE, MULTIPART_TYPE } from "./body-types";
import { multipartGuard, type UploadPolicy } from "./multipart-guard";

export interface KoaBodyParsers {
  /** Form fields or JSON into `ctx.request.body`. */
  formOrJson(ctx: Context): Promise<void>;
  /** A multipart body: fields into `ctx.request.body`, accepted files into `ctx.request.files`. */
  multipart(ctx: Context, uploads: UploadPolicy | undefined, limit: number): Promise<void>;
}

const done = async () => {};
/** A page's POST, or a resource route's action. */
const PARSED_METHODS = [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE];

export function createKoaBodyParsers({ maxBytes, maxFields, uploadDir }: { maxBytes: number; maxFields: number; uploadDir: string }): KoaBodyParsers {
  const parseFormOrJson = koaBody({
    json: true,
    urlencoded: true,
    multipart: false,
    text: false,
    jsonStrict: true,
    jsonLimit: maxBytes,
    formLimit: maxBytes,
    // qs drops the fields past its limit unless told to throw; arrays can then never hit theirs.
    queryString: { parameterLimit: maxFields, arrayLimit: maxFields, throwOnLimitExceeded: true },
    jsonTypes: [JSON_TYPE],
    urlencodedTypes: [FORM_TYPE],
    parsedMethods: PARSED_METHODS,
  });
  return {
    formOrJson: (ctx) => parseFormOrJson(ctx, done),
    // One koa-body per multipart request: its limits depend on the route's upload policy.
    multipart: async (ctx, uploads, limit) => {
      const partOrder = new Map<object, number>();
      await koaBody({
        json: false,
        urlencoded: false,
        text: false,
        multipart: true,
        multipartTypes: [MULTIPART_TYPE],
        parsedMethods: PARSED_METHODS,
        formidable: {
          uploadDir,
          maxFieldsSize: maxBytes,
          maxFields,
          maxFiles: uploads?.maxFiles ?? 0,
          maxFileSize: uploads?.maxFileBytes ?? 1,
          maxTotalFileSize: uploads ? uploads.maxFileBytes * uploads.maxFiles : 1,
          // A file input left empty still sends an empty file part.
          allowEmptyFiles: true,
          minFileSize: 0,
          enabledPlugins: [multipartGuard(limit, uploads), multipart],
          onFileBegin: (_field, file) => void partOrder.set(file, partOrder.size),
        },
      })(ctx, done);
      // formidable lists a field's files as each finishes writing; actions get them as the form sent them.
      for (const files of Object.values(ctx.request.files ?? {})) {
        if (Array.isArray(files)) files.sort((a, b) => (partOrder.get(a) ?? 0) - (partOrder.get(b) ?? 0));
      }
    },
  };
}
