import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { send, until } from "../../support/raw-http";
import { chunksOf, MULTIPART, multipartBody, type ParserApp, startParserApp } from "./parser-app";

let app: ParserApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const JSON_TYPE = { "content-type": "application/json" };

async function post(headers: Record<string, string>, body?: Buffer | Buffer[], method = "POST") {
  app ??= await startParserApp();
  return send(app.port, "/", { method, headers, body });
}

describe("the body parser accepts", () => {
  it("urlencoded forms, JSON and multipart fields", async () => {
    const form = await post(FORM, Buffer.from("message=hello+there&name=Ada"));
    expect(form.status).toBe(200);
    expect(form.json()).toMatchObject({ body: { message: "hello there", name: "Ada" } });

    const json = await post(JSON_TYPE, Buffer.from('{"message":"hi","count":2}'));
    expect(json.json()).toMatchObject({ body: { message: "hi", count: 2 } });

    const multipart = await post({ "content-type": MULTIPART }, multipartBody([{ name: "message", value: "héllo" }, { name: "tag", value: "a" }, { name: "tag", value: "b" }]));
    expect(multipart.status).toBe(200);
    expect(multipart.json()).toMatchObject({ body: { message: "héllo", tag: ["a", "b"] }, files: [] });
  });

  it("a POST without a body, whatever its type, as an empty body", async () => {
    const cases: Array<Record<string, string>> = [{}, { "content-length": "0" }, { ...FORM, "content-length": "0" }, { "content-type": "text/plain", "content-length": "0" }];
    for (const headers of cases) {
      const response = await post(headers);
      expect(response.status).toBe(200);
      expect(response.json()).toEqual({ body: {}, files: [] });
    }
  });

  it("gzip-compressed forms, limited by their inflated size", async () => {
    const small = await post({ ...FORM, "content-encoding": "gzip" }, gzipSync("message=packed"));
    expect(small.json()).toMatchObject({ body: { message: "packed" } });
    const bomb = await post({ ...FORM, "content-encoding": "gzip" }, gzipSync(`message=${"a".repeat(100_000)}`));
    expect(bomb.status).toBe(413);
  });

  it("leaves a body nothing reads alone", async () => {
    app = await startParserApp({ reader: () => null });
    const response = await post({ "content-type": "text/plain" }, Buffer.from("not read"));
    expect(response.json()).toEqual({ body: null, files: [] });
  });

  it("leaves the bodies of methods without one alone", async () => {
    const response = await post({ "content-type": "text/plain" }, Buffer.from("not read"), "OPTIONS");
    expect(response.status).toBe(200);
    expect(response.json()).toEqual({ body: null, files: [] });
  });

  it("reads PUT, PATCH and DELETE bodies as it reads a POST's (a resource route's action takes them)", async () => {
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      const response = await post({ "content-type": "application/json" }, Buffer.from('{"a":1}'), method);
      expect(response.json()).toEqual({ body: { a: 1 }, files: [] });
    }
  });
});

describe("the body parser refuses", () => {
  it("other types with 415, naming the accepted ones", async () => {
    for (const type of ["text/plain", "application/xml", "application/csp-report", "application/vnd.api+json"]) {
      const response = await post({ "content-type": type }, Buffer.from("<x/>"));
      expect(response.status, type).toBe(415);
      expect(response.text()).toContain("application/x-www-form-urlencoded, multipart/form-data or application/json");
    }
    const untyped = await post({}, Buffer.from("message=hi"));
    expect(untyped.status).toBe(415);
  });

  it("a declared Content-Length over the limit with 413, before reading it", async () => {
    const body = Buffer.from(`message=${"a".repeat(2000)}`);
    for (const headers of [FORM, JSON_TYPE, { "content-type": MULTIPART }]) {
      const response = await post(headers, body);
      expect(response.status, headers["content-type"]).toBe(413);
      expect(response.headers.connection).toBe("close");
      expect(response.text()).toContain("larger than 1024 bytes");
    }
  });

  it("chunked bodies over the limit with 413, counted as they arrive", async () => {
    const form = await post(FORM, chunksOf(Buffer.from(`message=${"a".repeat(5000)}`), 512));
    expect(form.status).toBe(413);
    const json = await post(JSON_TYPE, chunksOf(Buffer.from(JSON.stringify({ message: "a".repeat(5000) })), 512));
    expect(json.status).toBe(413);
    const multipart = await post({ "content-type": MULTIPART }, chunksOf(multipartBody([{ name: "message", value: "a".repeat(5000) }]), 512));
    expect(multipart.status).toBe(413);
  });

  it("a multipart body over the limit by its boundaries and headers alone", async () => {
    // The field data fits the limit; the part headers around it do not.
    const parts = Array.from({ length: 12 }, (_, i) => ({ name: `f${i}${"x".repeat(60)}`, value: "v" }));
    const body = multipartBody(parts);
    expect(body.length).toBeGreaterThan(1024);
    const response = await post({ "content-type": MULTIPART }, chunksOf(body, 256));
    expect(response.status).toBe(413);
    const within = await post({ "content-type": MULTIPART }, chunksOf(multipartBody(parts.slice(0, 6)), 256));
    expect(within.status).toBe(200);
  });

  it("malformed bodies with 400", async () => {
    const cases: Array<[Record<string, string>, Buffer]> = [
      [JSON_TYPE, Buffer.from('{"message": ')],
      [JSON_TYPE, Buffer.from('"a bare string"')],
      [{ "content-type": "multipart/form-data" }, multipartBody([{ name: "a", value: "b" }])],
      [{ "content-type": MULTIPART }, multipartBody([{ name: "a", value: "b" }]).subarray(0, 40)],
      [{ "content-type": MULTIPART }, Buffer.from("no boundary anywhere in here")],
      [{ ...FORM, "content-encoding": "gzip" }, Buffer.from("not gzip at all")],
      [{ ...JSON_TYPE, "content-type": "application/json; charset=utf-8" }, Buffer.from([0x7b, 0xff, 0xfe, 0x7d])],
    ];
    for (const [headers, body] of cases) {
      const response = await post(headers, body);
      expect([400], `${headers["content-type"]}: ${body.subarray(0, 20)}`).toContain(response.status);
    }
    expect(app?.appErrors).toEqual([]);
  });

  it("unknown content codings with 415", async () => {
    expect((await post({ ...FORM, "content-encoding": "zstd-ish" }, Buffer.from("a=b"))).status).toBe(415);
    expect((await post({ "content-type": MULTIPART, "content-encoding": "gzip" }, gzipSync(multipartBody([{ name: "a", value: "b" }])))).status).toBe(415);
  });

  it("never answers 500 and never reports an app error", async () => {
    app = await startParserApp();
    const bodies = [Buffer.alloc(0), Buffer.from("\r\n\r\n"), Buffer.from(`--${"x".repeat(3000)}`), Buffer.from([0, 1, 2, 3, 255])];
    const types = ["application/x-www-form-urlencoded", "application/json", MULTIPART, "multipart/form-data; boundary=", "multipart/mixed; boundary=x"];
    for (const type of types) {
      for (const body of bodies) {
        for (const chunked of [false, true]) {
          const response = await post({ "content-type": type }, chunked ? [body] : body);
          expect(response.status, `${type} ${chunked}`).toBeLessThan(500);
        }
      }
    }
    expect(app.appErrors).toEqual([]);
    expect(app.leftovers()).toEqual([]);
  });
});

describe("file parts", () => {
  const withFile = (type = "text/plain", value: string | Buffer = "file content") =>
    multipartBody([{ name: "message", value: "hi" }, { name: "attachment", value, filename: "notes.txt", type }]);

  it("are refused with 415 unless the route opts in, and no temporary file is written", async () => {
    app = await startParserApp();
    const response = await post({ "content-type": MULTIPART }, withFile());
    expect(response.status).toBe(415);
    expect(response.text()).toContain("File uploads are not accepted");
    // A part with a type but no filename is written to disk by formidable too.
    const typed = await post({ "content-type": MULTIPART }, multipartBody([{ name: "blob", value: "x", type: "application/octet-stream" }]));
    expect(typed.status).toBe(415);
    // A file input left empty still sends a file part.
    const empty = await post({ "content-type": MULTIPART }, multipartBody([{ name: "f", value: "", filename: "", type: "application/octet-stream" }]));
    expect(empty.status).toBe(415);
    expect(app.leftovers()).toEqual([]);
  });

  it("are accepted within a route's own limits, and deleted once the response has closed", async () => {
    app = await startParserApp({ reader: () => ({ uploads: { maxFileBytes: 4096, maxFiles: 1, types: ["text/plain"] } }) });
    const response = await post({ "content-type": MULTIPART }, withFile());
    expect(response.status).toBe(200);
    expect(response.json()).toMatchObject({ body: { message: "hi" }, files: [{ field: "attachment", size: 12, onDisk: true }] });
    await until(() => app?.leftovers().length === 0);
  });

  it("over the route's limits are 413 or 415, and leave nothing behind", async () => {
    app = await startParserApp({ reader: () => ({ uploads: { maxFileBytes: 4096, maxFiles: 1, types: ["text/plain"] } }) });
    const big = await post({ "content-type": MULTIPART }, chunksOf(withFile("text/plain", Buffer.alloc(6000, 97)), 1024));
    expect(big.status).toBe(413);

    const declared = await post({ "content-type": MULTIPART }, withFile("text/plain", Buffer.alloc(6000, 97)));
    expect(declared.status).toBe(413);
    const two = multipartBody([
      { name: "a", value: "one", filename: "a.txt", type: "text/plain" },
      { name: "b", value: "two", filename: "b.txt", type: "text/plain" },
    ]);
    expect((await post({ "content-type": MULTIPART }, two)).status).toBe(413);

    expect((await post({ "content-type": MULTIPART }, withFile("image/svg+xml"))).status).toBe(415);
    // formidable unlinks a destroyed file on the next timer tick.
    await until(() => app?.leftovers().length === 0);
    expect(app.appErrors).toEqual([]);
  });
});

describe("what the body parser does not look at", () => {
  it("the charset parameter: every form and JSON body is read as UTF-8, an unknown charset included", async () => {
    for (const charset of ["iso-8859-1", "no-such-charset"]) {
      const response = await post({ "content-type": `application/x-www-form-urlencoded; charset=${charset}` }, Buffer.from("message=h%C3%A9"));
      expect(response.status).toBe(200);
      expect(response.json()).toMatchObject({ body: { message: "hé" } });
    }
  });

  it("an empty body: parsed as no fields, for the action to judge", async () => {
    const response = await post(FORM, Buffer.alloc(0));
    expect(response.status).toBe(200);
    expect(response.json()).toMatchObject({ body: {} });
  });
});
