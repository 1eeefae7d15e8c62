import { defineSettings, type RouteMiddleware, requestValue } from "#outpost";
import { _default, object, string } from "zod/mini";

/**
 * The app's own settings, read from the environment and checked at start like the platform's
 * (an invalid value stops the server, naming it). Read them with `settings.get()`.
 */
export const settings = defineSettings(
  object({
    /** How pages greet a visitor who told us their name. */
    GREETING: _default(string(), "Hello"),
  }),
);

/** The settings, on every request's `values` for the routes below. */
export const appSettings = requestValue<ReturnType<typeof settings.get>>("appSettings");

/** Runs before every route's own middleware, for pages and resource routes alike. */
export const middleware: RouteMiddleware[] = [({ values }) => values.set(appSettings, settings.get())];
