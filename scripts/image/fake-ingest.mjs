// A stand-in Sentry ingest on loopback for image-smoke: prints its port, then
// appends one JSON line per request ({ method, url, headers, body }) to argv[2].
// argv[3] picks the port (to come back on the same one after being stopped).
// A body containing "slow-ingest" is answered after 2 s, to hold a request in flight.
import { appendFileSync } from "node:fs";
import { createServer } from "node:http";

const log = process.argv[2];
const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const body = Buffer.concat(chunks).toString("utf8");
    appendFileSync(log, `${JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body })}\n`);
    const answer = () => res.writeHead(200, { "content-type": "application/json" }).end('{"id":"fake"}');
    if (body.includes("slow-ingest")) setTimeout(answer, 2000);
    else answer();
  });
});
server.listen(Number(process.argv[3] ?? 0), "127.0.0.1", () => console.log(server.address().port));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
