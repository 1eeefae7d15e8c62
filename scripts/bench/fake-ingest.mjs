// Stand-in for Sentry's ingest: drains each body and answers 200 `{}`.
import { createServer } from "node:http";

const server = createServer((req, res) => {
  req.resume();
  req.once("end", () => {
    res.writeHead(200, { "content-type": "application/json", "content-length": "2" });
    res.end("{}");
  });
});
// Longer than the clients' keep-alive, so the ingest never closes a connection they reuse.
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  console.log(JSON.stringify({ port: server.address().port }));
});
