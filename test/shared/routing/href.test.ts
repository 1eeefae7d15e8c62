import { describe, expect, it } from "vitest";
import { type HrefOptions, href as typedHref } from "#src/shared/routing/href";

// The run-time behaviour, on patterns of no registered table (test/types checks the types).
const href = typedHref as unknown as (pattern: string, params?: Record<string, string | number>, options?: HrefOptions) => string;

describe("href()", () => {
  it("gives a static pattern as it is, the root as /", () => {
    expect(href("/type-tests/notes")).toBe("/type-tests/notes");
    expect(href("/")).toBe("/");
  });

  it("puts each param in its segment, percent-encoded, numbers as they print", () => {
    expect(href("/type-tests/notes/:id", { id: 7 })).toBe("/type-tests/notes/7");
    expect(href("/type-tests/notes/:id", { id: "a b/c?d#e%" })).toBe("/type-tests/notes/a%20b%2Fc%3Fd%23e%25");
    expect(href("/type-tests/notes/:id/comments/:commentId", { id: "é", commentId: 2 })).toBe("/type-tests/notes/%C3%A9/comments/2");
  });

  it("keeps a splat's slashes and encodes its parts; an empty splat ends at the prefix", () => {
    expect(href("/type-tests/files/*", { "*": "docs/a b.txt" })).toBe("/type-tests/files/docs/a%20b.txt");
    expect(href("/type-tests/files/*", { "*": "/docs//x/" })).toBe("/type-tests/files/docs/x");
    expect(href("/type-tests/files/*", { "*": "" })).toBe("/type-tests/files");
  });

  it("throws a TypeError naming the pattern and the param when a value is missing or empty", () => {
    expect(() => href("/type-tests/notes/:id")).toThrow(new TypeError('href("/type-tests/notes/:id") needs a value for :id'));
    expect(() => href("/type-tests/notes/:id", { id: "" })).toThrow(/needs a value for :id/);
  });

  it("writes a search as the query, encoded, an array's items repeated, undefined values left out", () => {
    expect(href("/type-tests/notes/new", {}, { search: { page: 2, q: "a b&c", draft: false, tag: undefined } })).toBe(
      "/type-tests/notes/new?page=2&q=a+b%26c&draft=false",
    );
    expect(href("/type-tests/notes/:id", { id: 7 }, { search: { tab: "comments", tag: ["a", "b"] } })).toBe("/type-tests/notes/7?tab=comments&tag=a&tag=b");
    expect(href("/type-tests/notes/new", {}, { search: {} })).toBe("/type-tests/notes/new");
  });

  it("answers a pattern asked again by the values of each call; a bad pattern throws every time", () => {
    expect(href("/type-tests/notes/:id", { id: 1 })).toBe("/type-tests/notes/1");
    expect(href("/type-tests/notes/:id", { id: 2 })).toBe("/type-tests/notes/2");
    expect(() => href("/type-tests/notes/:id")).toThrow(/needs a value for :id/);
    expect(href("//type-tests//notes/")).toBe("/type-tests/notes");
    expect(href("//type-tests//notes/", {}, { search: { page: 3 } })).toBe("/type-tests/notes?page=3");
    expect(href("//type-tests//notes/")).toBe("/type-tests/notes");
    for (let i = 0; i < 2; i++) expect(() => href("/type-tests/*/x", { "*": "a" })).toThrow(/must be the last segment/);
  });
});
