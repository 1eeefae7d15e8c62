import { expect, it } from "vitest";
import { open, responseOf, send } from "../harness";

/** Uploads `body` with a Content-Length in 64 KiB writes, a timer turn apart, as a browser on a real network would. */
async function pacedUpload(port: number, body: Buffer) {
  const req = open(port, "/monitoring?p=42", { body });
  const response = responseOf(req);
  response.catch(() => {});
  for (let offset = 0; offset < body.length && !req.destroyed; offset += 64 * 1024) {
    req.write(body.subarray(offset, offset + 64 * 1024));
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  req.end();
  return response;
}
import { datedEnvelope, sharedFakeIngest, startSpoolingTunnel } from "./spool-harness";

const ingest = sharedFakeIngest();

it("answers a 4 MiB upload it cannot spool with a 503 the client reads whole, not a broken pipe", async () => {
  const tunnel = await startSpoolingTunnel(ingest.dsn, {}, { maxBytes: 8 * 1024 * 1024 });
  try {
    await ingest.fake.stop();
    // Three refusals open the circuit: the large envelope is then refused before it is read.
    for (const tag of ["a", "b", "c"]) expect((await send(tunnel.port, "/monitoring?p=42", { body: datedEnvelope(ingest.dsn, tag) })).status).toBe(200);
    const large = datedEnvelope(ingest.dsn, "x".repeat(4 * 1024 * 1024));
    for (let i = 0; i < 3; i++) {
      const res = await pacedUpload(tunnel.port, large);
      expect(res.status).toBe(503);
      expect(res.headers["retry-after"]).toBe("60");
      expect(res.json().detail).toBe("Sentry ingest unavailable, retry later");
    }
  } finally {
    await ingest.fake.start();
    await tunnel.close();
  }
});
