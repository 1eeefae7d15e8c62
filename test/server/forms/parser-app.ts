import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import Koa from "koa";
import { type BodyParserOptions, bodyParser } from "#src/server/forms/body-parser";

export interface ParserApp {
  port: number;
  uploadDir: string;
  /** Statuses of the bodies the parser refused. */
  refusals: number[];
  /** Errors Koa reported through app.on("error"): a refused body must never be one. */
  appErrors: unknown[];
  /** Files in the upload directory now. */
  leftovers(): string[];
  close(): Promise<void>;
}

/**
 * The body parser alone on a tiny Koa app; behind it a handler that answers with what was
 * parsed, the names of the accepted files, and whether each file was on disk at the time.
 */
export async function startParserApp(options: Partial<BodyParserOptions> = {}): Promise<ParserApp> {
  const uploadDir = mkdtempSync(path.join(tmpdir(), "outpost-uploads-"));
  const refusals: number[] = [];
  const appErrors: unknown[] = [];
  const app = new Koa();
  app.on("error", (error) => appErrors.push(error));
  app.use(bodyParser({ maxBytes: 1024, uploadDir, onRefused: (_ctx, refusal) => refusals.push(refusal.status), ...options }));
  app.use((ctx) => {
    const files = Object.entries(ctx.request.files ?? {}).map(([field, entry]) => {
      const file = Array.isArray(entry) ? entry[0] : entry;
      return { field, size: file?.size, onDisk: file ? existsSync(file.filepath) : false };
    });
    ctx.body = { body: ctx.request.body ?? null, files };
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    uploadDir,
    refusals,
    appErrors,
    leftovers: () => readdirSync(uploadDir),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(uploadDir, { recursive: true, force: true });
    },
  };
}

export const BOUNDARY = "outpost-test-boundary";
export const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;

export interface PartSpec {
  name: string;
  value: string | Buffer;
  filename?: string;
  type?: string;
}

/** A multipart/form-data body as browsers send it. */
export function multipartBody(parts: PartSpec[]): Buffer {
  const pieces: Buffer[] = [];
  for (const part of parts) {
    const filename = part.filename === undefined ? "" : `; filename="${part.filename}"`;
    const type = part.type ? `\r\nContent-Type: ${part.type}` : "";
    pieces.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"${filename}${type}\r\n\r\n`));
    pieces.push(Buffer.from(part.value));
    pieces.push(Buffer.from("\r\n"));
  }
  pieces.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(pieces);
}

/** Splits a body into chunks, to be sent with Transfer-Encoding: chunked. */
export function chunksOf(body: Buffer, size = 4096): Buffer[] {
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < body.length; offset += size) chunks.push(body.subarray(offset, offset + size));
  return chunks;
}
