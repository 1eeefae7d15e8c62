// A Sentry envelope of an exact size: the header line the tunnel checks, then one attachment
// item filling the rest.
function prefix(dsn, size) {
  const header = `${JSON.stringify({ dsn, sent_at: new Date().toISOString() })}\n`;
  const itemHeader = (n) => `${JSON.stringify({ type: "attachment", length: n, filename: "bench.bin" })}\n`;
  let payload = size - header.length - itemHeader(0).length;
  payload -= itemHeader(payload).length - itemHeader(0).length;
  if (payload < 0) throw new Error(`envelope of ${size} bytes is too small`);
  return Buffer.from(header + itemHeader(payload));
}

export function envelope(dsn, size) {
  const head = prefix(dsn, size);
  return Buffer.concat([head, Buffer.alloc(size - head.length, "x")]);
}

/** The same envelope generated chunk by chunk as it is sent, never held whole. */
export async function* envelopeChunks(dsn, size, chunkSize = 64 * 1024) {
  const head = prefix(dsn, size);
  yield head;
  const fill = Buffer.alloc(chunkSize, "x");
  for (let left = size - head.length; left > 0; left -= chunkSize) {
    yield left >= chunkSize ? fill : fill.subarray(0, left);
  }
}

/** load-worker.mjs input posting envelopes of `size` bytes to `url`; `run` is its connections and timing. */
export function envelopeLoad(url, dsn, size, run, kind = "attachment") {
  return { url, method: "POST", headers: { "content-type": "application/x-sentry-envelope" }, envelope: { dsn, size, kind }, ...run };
}

/**
 * A 1 KiB-class error event envelope as the browser SDK sends one (exception, request, a few
 * breadcrumbs), `size` bytes exactly: an Authorization header gives the scrubber one value to
 * replace, so scrubbing pays for re-serialising the event, its costlier case.
 */
export function eventEnvelope(dsn, size) {
  const header = `${JSON.stringify({ event_id: "9ec79c33ec9942ab8353589fcb2e04dc", dsn, sent_at: new Date().toISOString() })}\n`;
  const event = (pad) => ({
    event_id: "9ec79c33ec9942ab8353589fcb2e04dc",
    platform: "javascript",
    level: "error",
    exception: { values: [{ type: "TypeError", value: "Cannot read properties of undefined (reading 'id')", stacktrace: { frames: [{ filename: "https://shop.example/assets/app-3f9a.js", function: "render", lineno: 1, colno: 4521, in_app: true }] } }] },
    request: { url: "https://shop.example/products/42", headers: { "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/124.0.0.0 Safari/537.36", Authorization: "Bearer abc.def.ghi" } },
    breadcrumbs: [{ category: "navigation", data: { from: "/", to: "/products/42" } }, { category: "ui.click", message: `button#buy${pad}` }],
    user: { id: "42" },
  });
  const item = (pad) => {
    const payload = JSON.stringify(event(pad));
    return `${JSON.stringify({ type: "event", length: Buffer.byteLength(payload) })}\n${payload}\n`;
  };
  const padding = size - header.length - item("").length;
  if (padding < 0) throw new Error(`event envelope of ${size} bytes is too small`);
  const body = Buffer.from(header + item("x".repeat(padding)));
  // The length header grew by a digit or two with the padding: trim the padding by as much.
  return body.length === size ? body : Buffer.from(header + item("x".repeat(padding - (body.length - size))));
}
