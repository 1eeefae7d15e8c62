import type { QueuedError } from "./error-queue";

/**
 * Errors the SDK never took (its chunk could not be fetched: the visitor went offline, a deploy
 * removed it) are kept in localStorage when the page is left, and the next page of the site
 * reports them: by then their Error objects are gone, so each is rebuilt with its name,
 * message and stack, which is what the SDK's event is made of.
 */
const KEY = "outpost:unsent-errors";
const KEPT_MAX = 10;

interface StoredError {
  source: QueuedError["source"];
  pattern: string;
  name: string;
  message: string;
  stack?: string;
  componentStack?: string;
}

function toStored({ source, pattern, error, info }: QueuedError): StoredError {
  const { name = "Error", message = String(error), stack } = error instanceof Error ? error : {};
  return { source, pattern, name, message, stack, componentStack: info?.componentStack ?? undefined };
}

function fromStored({ source, pattern, name, message, stack, componentStack }: StoredError): QueuedError {
  const error = Object.assign(new Error(message), { name, stack });
  return { source, pattern, error, info: componentStack === undefined ? undefined : { componentStack } };
}

function read(): StoredError[] {
  try {
    return JSON.parse(localStorage.getItem(KEY) ?? "[]") as StoredError[];
  } catch {
    return [];
  }
}

/** Keeps `unsent()` for the next page when this one is left, forgets them if it comes back (back/forward cache). */
export function keepUnsentErrorsOnLeave(unsent: () => readonly QueuedError[]): void {
  window.addEventListener("pagehide", () => {
    const errors = unsent();
    if (errors.length === 0) return;
    try {
      localStorage.setItem(KEY, JSON.stringify([...read(), ...errors.map(toStored)].slice(-KEPT_MAX)));
    } catch {
      // Storage full or refused: nothing more can be done for them.
    }
  });
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) localStorage.removeItem(KEY);
  });
}

/** The errors an earlier page of the site left unsent, which are then forgotten. */
export function takeUnsentErrors(): QueuedError[] {
  const stored = read();
  if (stored.length > 0) localStorage.removeItem(KEY);
  return stored.map(fromStored);
}
