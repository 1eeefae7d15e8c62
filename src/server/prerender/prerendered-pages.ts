import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import type { Context } from "koa";
import type { RuntimeConfig } from "../../shared/document/payload";
import { serializeAsScriptValue } from "../../shared/document/serialize";
import { pagePathOf } from "../../shared/routing/data-request";
import type { FixedAnswer } from "../http/fixed-answers";
import { hasValidTarget } from "../http/request-target";
import { SECURITY_HEADERS } from "../http/security-headers";
import { pathSpelling } from "../page-cache/cache-plan";
import { fixedStoredAnswer, type StoredAnswer, writeStored } from "../page-cache/stored-page";
import { redirectToCanonical } from "../request/canonical-path";
import type { ClassifiedRequest } from "../request/core/classify";

/** Where a build keeps its prerendered pages, beside its other outputs. */
export const PRERENDERED_DIR = "prerendered";
const MANIFEST = "manifest.json";

/** One prerendered URL: its document and the data answer a client navigation fetches. */
export interface PrerenderedPage {
  path: string;
  pattern: string;
  document: StoredAnswer;
  data: StoredAnswer;
}

/** What `dist/prerendered/manifest.json` lists; each page's answers are in a file of their own. */
export interface PrerenderedManifest {
  buildId: string;
  /** The browser's runtime config the documents were rendered with, as their payload scripts carry it. */
  config: string;
  pages: { path: string; pattern: string; file: string }[];
}

export interface PrerenderedBuild {
  config: string;
  pages: PrerenderedPage[];
}

/** A build's prerendered pages, read once at start; undefined when the build has none. */
export function loadPrerendered(distDir: string): PrerenderedBuild | undefined {
  const dir = path.join(distDir, PRERENDERED_DIR);
  if (!existsSync(path.join(dir, MANIFEST))) return undefined;
  const manifest = JSON.parse(readFileSync(path.join(dir, MANIFEST), "utf8")) as PrerenderedManifest;
  const pages = manifest.pages.map(({ file }) => JSON.parse(readFileSync(path.join(dir, file), "utf8")) as PrerenderedPage);
  return { config: manifest.config, pages };
}

/** The payload script's config part: the only place the runtime config is in a document. */
const configPart = (json: string) => `"config":${json}`;

/**
 * The document with this server's runtime config (DSN, environment, release: chosen at start,
 * not at build) in place of the build's; undefined if the build's is not found exactly once.
 */
function withServerConfig(document: StoredAnswer, built: string, served: string): StoredAnswer | undefined {
  if (built === served) return document;
  const parts = document.body.split(configPart(built));
  if (parts.length !== 2) return undefined;
  const etag = `W/"${createHash("sha256").update(`${document.etag}\0${served}`).digest("base64url").slice(0, 27)}"`;
  // The nonces after the config move by the difference in its length, in bytes.
  const at = Buffer.byteLength(parts[0] as string);
  const shift = Buffer.byteLength(configPart(served)) - Buffer.byteLength(configPart(built));
  const nonceSlots = document.nonceSlots?.map((slot) => (slot > at ? slot + shift : slot));
  return { ...document, body: parts.join(configPart(served)), etag, nonceSlots };
}

/** What the `Cache-Status` of a prerendered answer says (RFC 9211). */
const PRERENDERED_STATUS = "outpost; hit; detail=prerendered";

/** A build's pages as this server answers them, by the one spelling of their path the router matches alike. */
export type ServedPrerendered = Map<string, { path: string; pattern: string; document: StoredAnswer; data: StoredAnswer }>;

/** The build's pages with this server's runtime config in their documents; worked out once at start. */
export function servedPrerendered(build: PrerenderedBuild, config: RuntimeConfig): ServedPrerendered {
  const served = serializeAsScriptValue(config);
  // By the one spelling of every path the router matches alike (slashes, escapes).
  const byPath: ServedPrerendered = new Map();
  for (const page of build.pages) {
    const document = withServerConfig(page.document, build.config, served);
    if (document) byPath.set(pathSpelling(page.path), { path: page.path, pattern: page.pattern, document, data: page.data });
  }
  return byPath;
}

/**
 * Answers a page read (a plan `fromStorage`: GET or HEAD, document or data request) of a prerendered URL from the build,
 * without running any loader; true when it did. A page whose document could not take this
 * server's config is left to render. Another spelling of its path that the router matches alike
 * (`/x/`, `//x`, `/x/%61`) is found too: a document request is redirected (308) to the page's own
 * path, a data request answered from the build.
 */
export function prerenderedAnswers(byPath: ServedPrerendered): (ctx: Context, request: ClassifiedRequest) => boolean {
  return (ctx, request) => {
    const { pagePath } = request;
    const page = byPath.get(pathSpelling(pagePath));
    // The pattern too: a diagnostics page is matched (so served) only while they are enabled.
    if (!page || page.pattern !== request.matched?.pattern) return false;
    if (request.format === "document" && pagePath !== page.path) redirectToCanonical(ctx, page.path);
    else writeStored(ctx, request.format === "document" ? page.document : page.data, undefined, PRERENDERED_STATUS);
    return true;
  };
}

export interface FixedPrerenderedOptions {
  /** The pattern the router matches the path with (diagnostics on or off), if any. */
  patternOf: (path: string) => string | undefined;
  /** Whether a middleware ahead of the pages may answer this path (the tunnel's, the assets'). */
  takenEarlier: (path: string) => boolean;
  /** The Koa app, whose proxy trust the Host check requestTarget makes reads on each request. */
  app: { readonly proxy: boolean };
  /** The request log's record of an answer written before Koa. */
  track: (res: ServerResponse, route: string) => void;
  /** Names the request for error reporting, as the page handler does. */
  nameRoute?: (req: IncomingMessage, pattern: string) => void;
}

/**
 * The documents prerenderedAnswers writes, written before Koa for the usual request: a GET or HEAD
 * of exactly a page's own path, not conditional, with a Host requestTarget accepts. Every other
 * request (a query, another spelling, a 304, a data request) goes through Koa as before.
 */
export function fixedPrerenderedAnswers(byPath: ServedPrerendered, options: FixedPrerenderedOptions): FixedAnswer {
  const pages = new Map<string, { pattern: string; write: (res: ServerResponse, head: boolean) => void }>();
  for (const page of byPath.values()) {
    if (pagePathOf(page.path) !== null || options.patternOf(page.path) !== page.pattern || options.takenEarlier(page.path)) continue;
    const write = fixedStoredAnswer(page.document, PRERENDERED_STATUS, SECURITY_HEADERS);
    if (write) pages.set(page.path, { pattern: page.pattern, write });
  }
  const { app, track, nameRoute } = options;
  return (req, res) => {
    const { method } = req;
    if (method !== "GET" && method !== "HEAD") return false;
    const page = pages.get(req.url as string);
    if (page === undefined) return false;
    const { headers } = req;
    if (headers["if-none-match"] !== undefined || headers["if-modified-since"] !== undefined) return false;
    if (!hasValidTarget(req, app.proxy)) return false;
    track(res, page.pattern);
    nameRoute?.(req, page.pattern);
    page.write(res, method === "HEAD");
    return true;
  };
}
