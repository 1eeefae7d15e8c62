// SSR floor: bare node:http streaming the app's React tree with the server's render call,
// without Koa or any middleware.
import { createServer } from "node:http";
import { renderPage, serve } from "./lib/floor-render.mjs";

serve(createServer((_req, res) => renderPage(res)));
