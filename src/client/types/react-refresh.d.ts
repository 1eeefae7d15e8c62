// react-refresh ships no types; these are the parts of its runtime the dev client uses.
declare module "react-refresh/runtime" {
  export function injectIntoGlobalHook(globalObject: Window): void;
  export function register(type: unknown, id: string): void;
  export function createSignatureFunctionForTransform(): <T>(type: T, key?: string, forceReset?: boolean) => T;
  export function performReactRefresh(): unknown;
}
