import { deflateSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { envelopeDsn, MAX_HEADER_BYTES, parseContentEncoding, peekHeaderLine } from "#src/server/tunnel/check/envelope-header";
import { MalformedRequestError } from "#src/server/tunnel/contract/errors";
import { PrefixDecoder } from "#src/server/tunnel/check/prefix-decoder";

function reader(chunks: Buffer[]) {
  const queue = [...chunks];
  let reads = 0;
  return {
    read: async () => {
      reads += 1;
      return queue.shift();
    },
    reads: () => reads,
  };
}

function split(buffer: Buffer, size: number): Buffer[] {
  const parts: Buffer[] = [];
  for (let offset = 0; offset < buffer.length; offset += size) parts.push(buffer.subarray(offset, offset + size));
  return parts;
}

describe("peekHeaderLine", () => {
  const header = Buffer.from('{"dsn":"https://k@example.com/1"}');
  const body = Buffer.concat([header, Buffer.from('\n{"type":"event"}\n{}')]);

  it("finds the line however the body is chunked, and returns every chunk it read", async () => {
    for (const size of [1, 7, body.length]) {
      const chunks = split(body, size);
      const source = reader(chunks);
      const peeked = await peekHeaderLine(source.read, "identity");
      expect(peeked.line.equals(header)).toBe(true);
      expect(Buffer.concat(peeked.consumed).equals(body.subarray(0, peeked.consumed.reduce((n, c) => n + c.length, 0)))).toBe(true);
      expect(source.reads()).toBe(Math.ceil((header.length + 1) / size));
    }
  });

  it("returns the line as a copy, so that it never keeps a large upload's first chunk alive", async () => {
    // Outside Node's small-buffer pool, as socket chunks are.
    const chunk = Buffer.alloc(64 * 1024, "a");
    chunk.write('{"dsn":"x"}\n');
    const { line, consumed } = await peekHeaderLine(reader([chunk]).read, "identity");
    expect(line.toString()).toBe('{"dsn":"x"}');
    expect(consumed).toEqual([chunk]);
    expect(line.buffer).not.toBe(chunk.buffer);
  });

  it("takes a body without newline as a header-only envelope", async () => {
    expect((await peekHeaderLine(reader([header]).read, "identity")).line.equals(header)).toBe(true);
  });

  it("accepts exactly 64 KiB and refuses one byte more", async () => {
    const exact = Buffer.alloc(MAX_HEADER_BYTES, 0x61);
    await expect(peekHeaderLine(reader([exact, Buffer.from("\n")]).read, "identity")).resolves.toBeDefined();
    const over = Buffer.alloc(MAX_HEADER_BYTES + 1, 0x61);
    await expect(peekHeaderLine(reader([over, Buffer.from("\n")]).read, "identity")).rejects.toThrow(MalformedRequestError);
  });

  it("decodes a gzip or deflate prefix but returns the raw chunks", async () => {
    for (const [encoding, compress] of [["gzip", gzipSync], ["deflate", deflateSync]] as const) {
      const raw = compress(body);
      const peeked = await peekHeaderLine(reader(split(raw, 5)).read, encoding);
      expect(peeked.line.equals(header)).toBe(true);
      expect(Buffer.concat(peeked.consumed).equals(raw.subarray(0, Buffer.concat(peeked.consumed).length))).toBe(true);
    }
  });

  it("stops inflating a decompression bomb at the header limit", async () => {
    const bomb = gzipSync(Buffer.alloc(20 * 1024 * 1024, 0x61));
    await expect(peekHeaderLine(reader([bomb]).read, "gzip")).rejects.toThrow("longer than 64 KiB");
    const decoder = new PrefixDecoder("gzip", MAX_HEADER_BYTES);
    const decoded = (await decoder.write(bomb)).reduce((total, chunk) => total + chunk.length, 0);
    decoder.close();
    expect(decoded).toBeGreaterThan(MAX_HEADER_BYTES);
    expect(decoded).toBeLessThan(2 * MAX_HEADER_BYTES);
  });

  it("refuses a truncated or corrupt compressed body", async () => {
    const raw = gzipSync(header);
    await expect(peekHeaderLine(reader([raw.subarray(0, raw.length - 10)]).read, "gzip")).rejects.toThrow(
      "body does not match its Content-Encoding",
    );
    await expect(peekHeaderLine(reader([body]).read, "deflate")).rejects.toThrow(MalformedRequestError);
  });

  it("refuses an empty body", async () => {
    await expect(peekHeaderLine(reader([]).read, "identity")).rejects.toThrow("empty envelope");
  });
});

describe("envelope header", () => {
  it("returns the dsn", () => {
    expect(envelopeDsn(Buffer.from('{"dsn":"x","sdk":{}}'))).toBe("x");
  });

  it.each(['{"dsn":1}', '{"dsn":""}', "null", '"dsn"', "{"])("refuses %s", (line) => {
    expect(() => envelopeDsn(Buffer.from(line))).toThrow(MalformedRequestError);
  });

  it("knows which content encodings it can read", () => {
    expect(parseContentEncoding(undefined)).toBe("identity");
    expect(parseContentEncoding(" GZIP ")).toBe("gzip");
    expect(parseContentEncoding("x-gzip")).toBe("gzip");
    expect(parseContentEncoding("br")).toBe("br");
    expect(parseContentEncoding("gzip, br")).toBeUndefined();
    expect(parseContentEncoding("zstd")).toBeUndefined();
  });
});
