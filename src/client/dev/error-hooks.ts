import type { RootOptions } from "react-dom/client";

/** Dispatched on window for each error React reports, so the hot client can show it on its overlay. */
export const DEV_ERROR_EVENT = "outpost:dev-error";

type ErrorHooks = Pick<RootOptions, "onCaughtError" | "onUncaughtError">;

/**
 * Development only: the root's error hooks, also announcing every error. Static, because the
 * root is created before the hot client has loaded; production builds drop it unused.
 */
export function announcingErrors(hooks: ErrorHooks): ErrorHooks {
  const announce = (name: keyof ErrorHooks) => (error: unknown, info: { componentStack?: string }) => {
    window.dispatchEvent(new CustomEvent(DEV_ERROR_EVENT, { detail: error }));
    const own = hooks[name] as ((error: unknown, info: { componentStack?: string }) => void) | undefined;
    if (own) own(error, info);
    else console.error(error, info.componentStack ?? "");
  };
  return { ...hooks, onCaughtError: announce("onCaughtError"), onUncaughtError: announce("onUncaughtError") };
}
