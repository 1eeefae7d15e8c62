import type { Context } from "koa";
import { answerData, type DataAnswerOptions } from "../render/data-answer";
import { writeDocument } from "../render/document-writer";
import type { DocumentOptions } from "../render/render-document";
import { answerResourceRoute } from "../render/resource-answer";
import { sessionUnavailable } from "../sessions/session-store";
import type { ClassifiedRequest, RequestFormat, RequestOp } from "./core/classify";
import type { MaybePromise } from "./core/maybe-promise";
import type { RouteOutcome } from "./core/outcome";
import { type Refusal, refuseData, refuseDataNotTaken, refuseMethod, refuseNothing } from "./refusals";
import { type Resolver, resolveAction, resolveLoaders, resolveResource } from "./core/resolve";
import { resolveRoute } from "./core/resolve-route";
import { LOADERS_ONLY, NOT_TAKEN } from "./core/route-kind";
import type { RequestScope } from "./core/request-scope";

export type WriteOptions = DocumentOptions & DataAnswerOptions;

/** Turns an outcome into the HTTP answer. */
export type Writer = (ctx: Context, outcome: RouteOutcome, scope: RequestScope, options: WriteOptions) => MaybePromise<void>;

/** What the switch chose for one request; a handful of constant plans, so choosing allocates nothing. */
export interface PipelinePlan {
  /** CSRF, then the body parser, ahead of everything else: an action op only. */
  guarded: boolean;
  /** Whether a handler (an action, a resource route's) takes the request, so its body is read: the one answer to "does a handler take it?". */
  taken: boolean;
  /** A page read (GET or HEAD of a document or data answer): the only request the build or the page cache may answer. */
  fromStorage: boolean;
  refuse: Refusal;
  resolver: Resolver;
  write: Writer;
  /** The 503 a session read would have been, for a session its store could not take. */
  unsaved: (request: ClassifiedRequest, scope: RequestScope) => MaybePromise<RouteOutcome>;
}

/** A page shows the 503 at its leaf route, so the layouts above it render as usual. */
function unsavedPage(request: ClassifiedRequest, scope: RequestScope): MaybePromise<RouteOutcome> {
  const chain = request.matched ?? scope.routes.table.notFound();
  return resolveRoute(scope.routes, request.matched, scope.context, scope, { depth: chain.matches.length - 1, error: sessionUnavailable() });
}

/** A resource route answers the 503 as JSON, as a signal that stopped its handler. */
function unsavedResource(): RouteOutcome {
  const signal = sessionUnavailable();
  return { type: "resource", value: signal.data, status: signal.status, headers: signal.headers };
}

/** What each format writes with and answers when its session could not be saved. */
const FORMATS: Record<RequestFormat, Pick<PipelinePlan, "write" | "unsaved">> = {
  document: { write: writeDocument, unsaved: unsavedPage },
  data: { write: answerData, unsaved: unsavedPage },
  resource: { write: answerResourceRoute, unsaved: unsavedResource },
};

/** What each format refuses with: whatever may not run, and a method no handler or loader takes. */
const REFUSALS: Record<RequestFormat, { taken: Refusal; notTaken: Refusal }> = {
  document: { taken: refuseNothing, notTaken: refuseMethod },
  data: { taken: refuseData, notTaken: refuseDataNotTaken },
  resource: { taken: refuseNothing, notTaken: refuseMethod },
};

type Shape = Pick<PipelinePlan, "guarded" | "taken" | "fromStorage"> & { notTaken?: boolean };

const plan = (format: RequestFormat, { notTaken = false, ...shape }: Shape, resolver: Resolver): PipelinePlan => ({
  ...shape,
  resolver,
  refuse: notTaken ? REFUSALS[format].notTaken : REFUSALS[format].taken,
  ...FORMATS[format],
});

const READ: Shape = { guarded: false, taken: false, fromStorage: false };
const PAGE_READ: Shape = { guarded: false, taken: false, fromStorage: true };
const ACTION: Shape = { guarded: true, taken: true, fromStorage: false };
// An action op no action takes: guarded all the same, its body left unread, then the page (or the not-found page) answers.
const UNTAKEN: Shape = { guarded: true, taken: false, fromStorage: false };
const READ_REFUSED: Shape = { ...READ, notTaken: true };
const ACTION_REFUSED: Shape = { ...UNTAKEN, notTaken: true };

const RESOURCE_READ = plan("resource", READ, resolveResource);
const RESOURCE_ACTION = plan("resource", ACTION, resolveResource);
const DATA_READ = plan("data", PAGE_READ, resolveLoaders);
const DATA_ACTION = plan("data", ACTION, resolveAction);
const DATA_UNTAKEN = plan("data", UNTAKEN, resolveLoaders);
const DOCUMENT_READ = plan("document", PAGE_READ, resolveLoaders);
const DOCUMENT_ACTION = plan("document", ACTION, resolveAction);
const DOCUMENT_UNTAKEN = plan("document", UNTAKEN, resolveLoaders);
/** A method the route does not take (405), per format and op: an action op passes CSRF first. */
const REFUSED: Record<RequestFormat, Record<RequestOp, PipelinePlan>> = {
  resource: { read: plan("resource", READ_REFUSED, resolveResource), action: plan("resource", ACTION_REFUSED, resolveResource) },
  data: { read: plan("data", READ_REFUSED, resolveLoaders), action: plan("data", ACTION_REFUSED, resolveLoaders) },
  document: { read: plan("document", READ_REFUSED, resolveLoaders), action: plan("document", ACTION_REFUSED, resolveLoaders) },
};

/**
 * The one place that acts on a classification: whether the method is taken at all, whether the
 * build or the page cache may answer, the guards (an action op only), the resolver (a resource
 * route's handler, a page's action, or its loaders) and the writer (document, data answer, resource answer).
 */
export function choosePlan({ format, op, handler }: ClassifiedRequest): PipelinePlan {
  if (handler === NOT_TAKEN) return REFUSED[format][op];
  if (format === "resource") return op === "read" ? RESOURCE_READ : RESOURCE_ACTION;
  const taken = handler !== LOADERS_ONLY;
  if (format === "data") return op === "read" ? DATA_READ : taken ? DATA_ACTION : DATA_UNTAKEN;
  return op === "read" ? DOCUMENT_READ : taken ? DOCUMENT_ACTION : DOCUMENT_UNTAKEN;
}
