import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { send } from "../../support/raw-http";
import { MULTIPART, multipartBody, type ParserApp, startParserApp } from "./parser-app";

// Each limit, when hit, is named in the refusal; a form within them keeps every field.
let app: ParserApp;
beforeAll(async () => {
  app = await startParserApp({ maxBytes: 65_536, maxFields: 500, reader: () => ({ uploads: { maxFileBytes: 1_000, maxFiles: 2 } }) });
});
afterAll(() => app.close());

const post = (type: string, body: Buffer) => send(app.port, "/", { headers: { "content-type": type }, body });
const form = (count: number) => Buffer.from(Array.from({ length: count }, (_, i) => `f${i}=x`).join("&"));
const parts = (count: number) => Array.from({ length: count }, (_, i) => ({ name: `f${i}`, value: "x" }));

describe("the field count (BODY_MAX_FIELDS)", () => {
  it("an urlencoded form at the limit keeps every field", async () => {
    const response = await post("application/x-www-form-urlencoded", form(500));
    expect(response.status).toBe(200);
    expect(Object.keys((response.json() as { body: object }).body)).toHaveLength(500);
  });

  it("an urlencoded form over it is 413 naming the field limit, not silently cut", async () => {
    const response = await post("application/x-www-form-urlencoded", form(502));
    expect(response.status).toBe(413);
    expect(response.text()).toBe("More than 500 form fields\n");
  });

  it("a small multipart body over it is 413 naming the field limit, not the body size", async () => {
    const body = multipartBody(parts(502));
    expect(body.length).toBeLessThan(65_536);
    const response = await post(MULTIPART, body);
    expect(response.status).toBe(413);
    expect(response.text()).toBe("More than 500 form fields\n");
  });
});

describe("file limits (the route's uploads)", () => {
  it("a file over maxFileBytes is 413 naming the file size", async () => {
    const response = await post(MULTIPART, multipartBody([{ name: "a", value: Buffer.alloc(1_500), filename: "a.bin", type: "application/octet-stream" }]));
    expect(response.status).toBe(413);
    expect(response.text()).toBe("A file larger than 1000 bytes\n");
    // The partial file is removed as the request ends, which may be just after the answer.
    await vi.waitFor(() => expect(app.leftovers()).toEqual([]), { timeout: 5_000 });
  });

  it("the fields of a multipart body over BODY_MAX_BYTES are 413 naming the body size", async () => {
    const response = await post(MULTIPART, multipartBody([{ name: "a", value: "x".repeat(66_000) }]));
    expect(response.status).toBe(413);
    expect(response.text()).toMatch(/^Request body larger than \d+ bytes\n$/);
  });
});
