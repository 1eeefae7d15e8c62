// The undici parts undici-agent.ts loads, typed by undici's own declarations.
declare module "undici/lib/dispatcher/agent.js" {
  import { Agent } from "undici";
  export default Agent;
}
declare module "undici/lib/dispatcher/dispatcher.js" {
  import { Dispatcher } from "undici";
  export default Dispatcher;
}
declare module "undici/lib/api/index.js" {
  import type { Dispatcher } from "undici";
  const api: Pick<Dispatcher, "request" | "stream" | "pipeline" | "connect" | "upgrade">;
  export default api;
}
