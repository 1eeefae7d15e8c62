import type { RouteMiddleware } from "#outpost";
import { defineSettings } from "#outpost/server";
import { _default, object, string } from "zod/mini";

/**
 * The app's own settings, read from the environment and checked at start like the platform's
 * (an invalid value stops the server, naming it). Route code reads them from its request context: `settings.get(context)`.
 */
export const settings = defineSettings(
  object({
    /** How pages greet a visitor who told us their name. */
    GREETING: _default(string(), "Hello"),
  }),
);

/**
 * Runs before every route's own middleware, for pages and resource routes alike (see
 * "Middleware" in docs/guides/pages.md). None yet: each one runs on every request, so add
 * only what every page needs.
 */
export const middleware: RouteMiddleware[] = [];
