import type { Context } from "koa";
import { answerData, type DataAnswerOptions } from "../render/data-answer";
import { writeDocument } from "../render/document-writer";
import type { DocumentOptions } from "../render/render-document";
import { answerResourceRoute } from "../render/resource-answer";
import { sessionUnavailable } from "../sessions/session-store";
import type { ClassifiedRequest, RequestFormat } from "./core/classify";
import type { MaybePromise } from "./core/maybe-promise";
import type { RouteOutcome } from "./core/outcome";
import { type Refusal, refuseData, refuseMethod } from "./refusals";
import { type Resolver, resolveAction, resolveLoaders, resolveResource } from "./core/resolve";
import { resolveRoute } from "./core/resolve-route";
import type { RequestScope } from "./core/request-scope";

export type WriteOptions = DocumentOptions & DataAnswerOptions;

/** Turns an outcome into the HTTP answer. */
export type Writer = (ctx: Context, outcome: RouteOutcome, scope: RequestScope, options: WriteOptions) => MaybePromise<void>;

/** What the switch chose for one request; a handful of constant plans, so choosing allocates nothing. */
export interface PipelinePlan {
  /** CSRF, then the body parser, ahead of everything else: an action op only. */
  guarded: boolean;
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

/** What each format refuses with, writes with, and answers when its session could not be saved. */
const FORMATS: Record<RequestFormat, Pick<PipelinePlan, "refuse" | "write" | "unsaved">> = {
  document: { refuse: refuseMethod, write: writeDocument, unsaved: unsavedPage },
  data: { refuse: refuseData, write: answerData, unsaved: unsavedPage },
  resource: { refuse: refuseMethod, write: answerResourceRoute, unsaved: unsavedResource },
};

const plan = (format: RequestFormat, guarded: boolean, resolver: Resolver): PipelinePlan => ({ guarded, resolver, ...FORMATS[format] });

const RESOURCE_READ = plan("resource", false, resolveResource);
const RESOURCE_ACTION = plan("resource", true, resolveResource);
const DATA_READ = plan("data", false, resolveLoaders);
const DATA_ACTION = plan("data", true, resolveAction);
// UNTAKEN: an action op no action takes, guarded all the same, then refused (405) or the not-found page.
const DATA_UNTAKEN = plan("data", true, resolveLoaders);
const DOCUMENT_READ = plan("document", false, resolveLoaders);
const DOCUMENT_ACTION = plan("document", true, resolveAction);
const DOCUMENT_UNTAKEN = plan("document", true, resolveLoaders);

/**
 * The one place that acts on a classification: the guards (an action op only), the resolver (a
 * resource route's handler, a page's action, or its loaders) and the writer (document, data
 * answer, resource answer).
 */
export function choosePlan({ format, op, handler }: ClassifiedRequest): PipelinePlan {
  if (format === "resource") return op === "read" ? RESOURCE_READ : RESOURCE_ACTION;
  else if (format === "data") return op === "read" ? DATA_READ : handler ? DATA_ACTION : DATA_UNTAKEN;
  else return op === "read" ? DOCUMENT_READ : handler ? DOCUMENT_ACTION : DOCUMENT_UNTAKEN;
}
