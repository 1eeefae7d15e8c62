/**
 * The platform's server face for product code (`import { … } from "#outpost/server"`): what only a
 * `*.server.ts` module (loaders, actions, middleware, resource routes, settings) may call. The
 * client build refuses any browser module that imports it; components and types are in `#outpost`.
 */
export { actionData } from "./routing/action-result";
export { type ParsedForm, fieldErrors, formValues, parseForm } from "./forms/parse-form";
export { httpError, notFound, redirect } from "../shared/routing/signals";
export { requestValue } from "./routing/request-value";
export { type RateLimitDecision, type RateLimitMiddleware, rateLimit, type RateLimitOptions } from "./routing/rate-limit";
export { revalidatePath, revalidateTag } from "./routing/revalidation";
export { defineSettings } from "./routing/settings";
export { eventStream, type EventStreamOptions, publish } from "./events/event-stream";
