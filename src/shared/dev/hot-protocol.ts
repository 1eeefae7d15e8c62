/**
 * Development only: what `npm run dev` tells open pages. The dev script (scripts/dev.mjs)
 * hands it to the dev server over IPC, and the server's event stream
 * (src/server/dev/update-stream.ts) passes it on, since the page's CSP allows same-origin
 * connections only.
 */
export const DEV_EVENTS_PATH = "/__dev/reload";

/** One successful rebuild, as open pages should apply it. */
export interface HotUpdate {
  /** Counts rebuilds in this `npm run dev` session. */
  version: number;
  /**
   * Chunks to import again (by esbuild entry point, so a later one replaces an earlier); a route
   * module's chunk names its route, whose module the page's route table then swaps for the new.
   */
  modules: { id: string; url: string; route?: string }[];
  /** Stylesheets replaced in place: the link whose URL is `from` gets `to`. */
  styles: { from: string; to: string }[];
  /** Something changed that cannot be swapped in place: reload the page. */
  reload: boolean;
  /** Why it reloads, for the console. */
  reasons: string[];
  /** Server-only code changed (a loader): re-fetch the page's data once the new server runs. */
  revalidate: boolean;
}

/** An esbuild error, ready to show: the code frame is cut on the dev script's side. */
export interface BuildProblem {
  message: string;
  file?: string;
  line?: number;
  column?: number;
  frame?: string;
}

/**
 * What a server process announces to each stream as it connects (event `hello`): the rebuild
 * it serves, the updates before it (so a page that missed some catches up) and whether the
 * latest build is broken.
 */
export interface DevState {
  version: number;
  updates: HotUpdate[];
  problems: BuildProblem[];
}

/**
 * The Server-Timing metric naming, on every dev response, the rebuild its server serves: a
 * page reads its document's (PerformanceNavigationTiming.serverTiming) to know which updates
 * it lacks should its event stream first connect to a newer server.
 */
export const DEV_VERSION_TIMING = "outpost-dev-version";

/** IPC from the dev script to the server process. */
export type DevMessage =
  | { type: "outpost-dev:update"; update: HotUpdate; files: Record<string, string> }
  | { type: "outpost-dev:problems"; problems: BuildProblem[] }
  /** The server is about to be replaced: stop accepting, end the event streams, answer `outpost-dev:handed-over`. */
  | { type: "outpost-dev:handover" };

/**
 * Where the standby leaves the listening socket the dev script kept from the first server
 * (scripts/dev/standby.mjs, src/server/dev/kept-listener.ts).
 */
export const DEV_LISTENER_GLOBAL = "__outpostDevListener";

/** Where the standby leaves the state for the server it starts (scripts/dev/standby.mjs). */
export const DEV_STATE_GLOBAL = "__outpostDevState";
