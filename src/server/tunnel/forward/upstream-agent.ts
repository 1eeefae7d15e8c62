import type { Dispatcher } from "undici";
import type { RequestDispatcher } from "../contract/types";
import type { Agent } from "./undici-agent";

export interface UpstreamAgent extends RequestDispatcher {
  /** Closes the agent's connections, if it was ever loaded. */
  close(): Promise<void>;
}

/**
 * The tunnel's own undici Agent, loaded with the first envelope sent upstream (or replayed):
 * its modules are a visible share of start-up for a path that serves only the browser's error
 * reports, never a page (docs/decisions/0016-start-up-loads-on-first-use.md).
 */
export function createUpstreamAgent(options: ConstructorParameters<typeof Agent>[0]): UpstreamAgent {
  let loading: Promise<Agent> | undefined;
  const agent = () => (loading ??= import("./undici-agent").then(({ Agent }) => new Agent(options)));
  return {
    request: (async (request: Dispatcher.RequestOptions) => (await agent()).request(request)) as Dispatcher["request"],
    async close() {
      const loaded = await loading;
      if (loaded && !loaded.closed) await loaded.close();
    },
  };
}
