/**
 * A page whose loaders answer synchronously (most) is resolved without a promise per step:
 * each is a microtask, and a hook call too once AsyncLocalStorage is in use (React's server
 * renderer uses one). Values that may be other thenables (loaders' results) go through
 * `isThenable`; `thenMaybe` takes only our own, which are native promises or plain values.
 */
export type MaybePromise<T> = T | Promise<T>;

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === "function";
}

/** `next(value)`, straight away when `value` is already there. */
export function thenMaybe<T, R>(value: MaybePromise<T>, next: (value: T) => MaybePromise<R>): MaybePromise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
