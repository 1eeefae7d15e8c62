import { type ReactNode, use } from "react";
import type { RouteError } from "../routing/module";
import { DeferredError } from "./deferred-data";

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

// One settled promise per deferred value, so `use` sees the same promise on every render.
const outcomes = new WeakMap<PromiseLike<unknown>, Promise<Outcome>>();

function outcomeOf(promise: PromiseLike<unknown>): Promise<Outcome> {
  let outcome = outcomes.get(promise);
  if (!outcome) {
    outcome = Promise.resolve(promise).then(
      (value): Outcome => ({ ok: true, value }),
      (error: unknown): Outcome => ({ ok: false, error }),
    );
    outcomes.set(promise, outcome);
  }
  return outcome;
}

export interface AwaitProps<T> {
  /** A deferred value from the loader's data (or a plain value, shown at once). */
  resolve: PromiseLike<T> | T;
  /** What to show once the value is there. */
  children: ReactNode | ((value: T) => ReactNode);
  /** What to show when the value failed; without it the error goes to the route's error component. */
  errorElement?: ReactNode | ((error: RouteError) => ReactNode);
}

/**
 * Shows a deferred value inside a `<Suspense>` boundary: its fallback until the value settles,
 * then `children`, or `errorElement` when it failed. The failure is handled here rather than by
 * a thrown error, so the server renders the error element itself and the browser hydrates it.
 */
export function Await<T>({ resolve, children, errorElement }: AwaitProps<T>): ReactNode {
  const pending = typeof (resolve as PromiseLike<T> | null)?.then === "function";
  const outcome: Outcome = pending ? use(outcomeOf(resolve as PromiseLike<T>)) : { ok: true, value: resolve };
  if (outcome.ok) return typeof children === "function" ? children(outcome.value as T) : children;
  if (errorElement === undefined) throw outcome.error;
  const error: RouteError = outcome.error instanceof DeferredError ? outcome.error.routeError : {};
  return typeof errorElement === "function" ? errorElement(error) : errorElement;
}
