// Tunnel floor: a bare relay piping each request body to the ingest with undici and a
// keep-alive Agent. No framework, no checks.
import { createServer } from "node:http";
import { Agent, request } from "undici";

const upstream = `${process.env.INGEST_ORIGIN}/api/42/envelope/`;
const dispatcher = new Agent({ keepAliveTimeout: 10_000 });

const server = createServer(async (req, res) => {
  try {
    const answer = await request(upstream, {
      method: "POST",
      headers: {
        "content-type": req.headers["content-type"] ?? "application/x-sentry-envelope",
        ...(req.headers["content-length"] ? { "content-length": req.headers["content-length"] } : {}),
      },
      body: req,
      dispatcher,
    });
    res.writeHead(answer.statusCode, { "content-type": answer.headers["content-type"] ?? "application/json" });
    answer.body.pipe(res);
  } catch {
    res.writeHead(502).end();
  }
});
server.keepAliveTimeout = 65_000;
server.listen(0, "127.0.0.1", () => console.log(JSON.stringify({ port: server.address().port })));
// Exit normally on SIGTERM, so that a --cpu-prof run writes its profile.
process.once("SIGTERM", () => process.exit(0));
