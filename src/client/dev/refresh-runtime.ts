// Development only. React Fast Refresh's runtime, built once per `npm run dev` beside React in
// the vendor folder (scripts/dev/vendor.mjs), so the app's modules and the hot client share
// one copy however often they are rebuilt. React DOM's vendor module imports this first: React
// DOM registers with the DevTools global hook as it loads, and the refresh runtime must be
// that hook by then.
import * as Refresh from "react-refresh/runtime";

Refresh.injectIntoGlobalHook(window);

/** `$RefreshReg$` for one module: a component's id is its module's path and its name. */
export function registerIn(moduleId: string): (type: unknown, name: string) => void {
  return (type, name) => Refresh.register(type, `${moduleId} ${name}`);
}

export const createSignature = Refresh.createSignatureFunctionForTransform;
export const performReactRefresh = Refresh.performReactRefresh;
