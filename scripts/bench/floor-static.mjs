// Stored-page floor: bare node:http answering each path with fixed bytes (BENCH_PAGES: a JSON
// object of path to file, or to { file, type, cacheControl } for other than an HTML page's
// headers), what serving a kept page or a probe costs without any framework.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { serve } from "./lib/serve-floor.mjs";

const HTML = { type: "text/html; charset=utf-8", cacheControl: "no-cache" };
const pages = new Map(
  Object.entries(JSON.parse(process.env.BENCH_PAGES)).map(([page, given]) => {
    const { file, type, cacheControl } = typeof given === "string" ? { ...HTML, file: given } : given;
    return [page, { body: readFileSync(file), type, cacheControl }];
  }),
);

serve(
  createServer((req, res) => {
    const page = pages.get(req.url);
    if (!page) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": page.type, "cache-control": page.cacheControl, "content-length": page.body.length });
    res.end(page.body);
  }),
);
