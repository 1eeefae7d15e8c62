// undici's Agent without the rest of undici. Its index also loads fetch, WebSocket, cookies,
// caches, mocks… (half the tunnel's chunk: ≈ 580 KB compiled at start-up whenever a DSN is
// set) and is what gives dispatchers their request() method. The tunnel needs an Agent and
// request() only, so it loads those parts and adds the method as undici's index does. undici
// has no exports map; a part that moves fails the build (and typecheck), not a request.
import UndiciAgent from "undici/lib/dispatcher/agent.js";
import Dispatcher from "undici/lib/dispatcher/dispatcher.js";
import api from "undici/lib/api/index.js";

Object.assign(Dispatcher.prototype, api);

export const Agent = UndiciAgent;
export type Agent = InstanceType<typeof UndiciAgent>;
