import { locationHeader } from "./location";

/**
 * The framework's two control-flow signals. Loaders throw them; the server turns them
 * into a redirect or a 404. They are recognised by class *and* by a tagged marker, because
 * a bundler can load two copies of this module (server bundle vs. SDK hooks), which breaks
 * `instanceof` but not a symbol registered with Symbol.for.
 */
const SIGNAL = Symbol.for("outpost.signal");

export type RedirectStatus = 301 | 302 | 303 | 307 | 308;

export class RedirectSignal extends Error {
  readonly [SIGNAL] = "redirect" as const;
  constructor(
    readonly location: string,
    readonly status: RedirectStatus = 307,
  ) {
    super(`redirect to ${location}`);
    this.name = "RedirectSignal";
  }
}

export class NotFoundSignal extends Error {
  readonly [SIGNAL] = "not-found" as const;
  constructor() {
    super("not found");
    this.name = "NotFoundSignal";
  }
}

/** Throws a redirect to `location`, encoded for the header; a target no header can carry throws a TypeError. */
export function redirect(location: string, status: RedirectStatus = 307): never {
  throw new RedirectSignal(locationHeader(location), status);
}

export function notFound(): never {
  throw new NotFoundSignal();
}

function signalKind(value: unknown): unknown {
  return typeof value === "object" && value !== null
    ? (value as { [SIGNAL]?: unknown })[SIGNAL]
    : undefined;
}

export function isRedirectSignal(value: unknown): value is RedirectSignal {
  return signalKind(value) === "redirect";
}

export function isNotFoundSignal(value: unknown): value is NotFoundSignal {
  return signalKind(value) === "not-found";
}
