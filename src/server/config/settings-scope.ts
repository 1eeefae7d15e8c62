import { AsyncLocalStorage } from "node:async_hooks";
import type { Middleware } from "koa";
import { type AppSettings, lookUpScopedSettings } from "../routing/settings";
import { parseEnvironment } from "./env.server";

const current = new AsyncLocalStorage<ReadonlyMap<AppSettings<unknown>, unknown>>();

/**
 * An app given its own settings source (a test's `startTestApp({ NOTES_DIR })`): its settings are
 * validated now, as at start, and `settings.get()` returns them for every request this app serves
 * (loaders, actions, deferred values), whatever other app runs in the same process. The process
 * entry never uses it: its settings are the environment's, read once.
 */
export function ownSettings(settings: AppSettings<unknown>, source: NodeJS.ProcessEnv): Middleware {
  const values = new Map([[settings, parseEnvironment(settings.schema, source, "Invalid app settings")]]);
  lookUpScopedSettings(() => current.getStore());
  return (_ctx, next) => current.run(values, next);
}
