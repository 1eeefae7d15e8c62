import type { NavigateOptions } from "../../shared/navigation/router-context";
import type { RouterLocation } from "../../shared/navigation/router-state";

/**
 * How a page request changes history: a new entry, this entry, one reached by back/forward, or
 * none (the page on screen gets new data: a revalidation, or the answer to its own form).
 */
export type HistoryMode = "push" | "replace" | "pop" | "none";

/** How a navigation was asked for: what its history entry keeps and how it is shown. */
export interface NavigationIntent extends Omit<NavigateOptions, "replace"> {
  /** Back/forward: the entry reached, its key and index. */
  key?: string;
  index?: number;
}

/** What the router keeps in each history entry it makes. */
export interface HistoryEntry {
  key?: string;
  idx?: number;
  usr?: unknown;
}

export const newKey = () => Math.random().toString(36).slice(2, 10);

export function locationOf(url: URL): Omit<RouterLocation, "key" | "state">;
export function locationOf(url: URL, key: string, state: unknown): RouterLocation;
export function locationOf(url: URL, key?: string, state?: unknown) {
  return { pathname: url.pathname, search: url.search, hash: url.hash, ...(key === undefined ? {} : { state, key }) };
}
