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
export function envelopeLoad(url, dsn, size, run) {
  return { url, method: "POST", headers: { "content-type": "application/x-sentry-envelope" }, envelope: { dsn, size }, ...run };
}
