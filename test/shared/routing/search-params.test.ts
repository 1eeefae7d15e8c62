import { describe, expect, it } from "vitest";
import { _default, coerce, gte, int, object } from "zod/mini";
import { parseSearch, queryObject, type SearchSchema } from "#src/shared/routing/search-params";
import { isHttpErrorSignal } from "#src/shared/routing/signals";

const schema = object({ page: _default(coerce.number().check(int(), gte(1, "page must be 1 or more")), 1) });
const query = (text: string) => new URLSearchParams(text);

describe("parsing a page's query by its schema", () => {
  it("gives the schema's output, its defaults applied", () => {
    expect(parseSearch(schema, query(""), "page")).toEqual({ page: 1 });
    expect(parseSearch(schema, query("page=4"), "page")).toEqual({ page: 4 });
  });

  it("reads a repeated parameter as an array, a single one as a string", () => {
    expect(queryObject(query("a=1&b=2&a=3&a=4"))).toEqual({ a: ["1", "3", "4"], b: "2" });
  });

  it("throws a 400 signal carrying each issue's parameter and message", () => {
    let thrown: unknown;
    try {
      parseSearch(schema, query("page=0"), "page");
    } catch (error) {
      thrown = error;
    }
    expect(isHttpErrorSignal(thrown)).toBe(true);
    expect(thrown).toMatchObject({ status: 400, data: { issues: [{ path: ["page"], message: "page must be 1 or more" }] } });
  });

  it("refuses a schema that validates asynchronously, naming the route", () => {
    const asynchronous: SearchSchema = { "~standard": { version: 1, vendor: "test", validate: async (value) => ({ value }) } };
    expect(() => parseSearch(asynchronous, query(""), "notes/List")).toThrow(
      new TypeError("searchParams of route notes/List: its schema validates asynchronously; a query schema must validate synchronously"),
    );
  });
});
