// Uploads `count` envelopes of `size` bytes at once, each generated as it is sent.
import { Agent, request } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { envelopeChunks } from "./lib/envelope.mjs";

const { url, dsn, size, count } = JSON.parse(process.env.BENCH_INPUT);
const agent = new Agent({ keepAlive: true, maxSockets: count });

function upload() {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: "POST",
      agent,
      headers: { "content-type": "application/x-sentry-envelope", "content-length": String(size) },
    });
    req.once("response", (res) => {
      res.resume();
      res.once("end", () => resolve(res.statusCode));
    });
    req.once("error", reject);
    pipeline(Readable.from(envelopeChunks(dsn, size)), req).catch(reject);
  });
}

const started = performance.now();
const statuses = await Promise.all(Array.from({ length: count }, upload));
const seconds = (performance.now() - started) / 1000;
agent.destroy();
console.log(JSON.stringify({ seconds, ok: statuses.filter((s) => s === 200).length, statuses: [...new Set(statuses)] }));
