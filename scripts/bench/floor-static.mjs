// Stored-page floor: bare node:http answering each path with fixed bytes (BENCH_PAGES: a JSON
// object of path to file), what serving a kept page costs without any framework.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { serve } from "./lib/serve-floor.mjs";

const pages = new Map(Object.entries(JSON.parse(process.env.BENCH_PAGES)).map(([page, file]) => [page, readFileSync(file)]));

serve(
  createServer((req, res) => {
    const body = pages.get(req.url);
    if (!body) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache", "content-length": body.length });
    res.end(body);
  }),
);
