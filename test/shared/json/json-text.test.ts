import { describe, expect, it } from "vitest";
import { nestsDeeperThan } from "#src/server/forms/json-depth";
import { jsonText, UnserialisableValueError } from "#src/shared/json/json-text";

const failure = (value: unknown): string => {
  try {
    jsonText(value, "the answer");
  } catch (error) {
    expect(error).toBeInstanceOf(UnserialisableValueError);
    expect(error).toBeInstanceOf(TypeError);
    return (error as Error).message;
  }
  throw new Error("serialised");
};
const nested = (depth: number, leaf: unknown = []) => {
  let value = leaf;
  for (let level = 1; level < depth; level++) value = [value];
  return value;
};

describe("jsonText", () => {
  it("is JSON.stringify for anything JSON can carry: shared objects, dates, toJSON, brackets in strings", () => {
    const shared = { x: 1 };
    const value = { a: shared, b: [shared, shared], at: new Date(0), text: "[[{{\"]]", custom: { toJSON: () => "mine" }, none: undefined };
    expect(jsonText(value, "the answer")).toBe(JSON.stringify(value));
  });

  it("names a BigInt and where it is, quoting keys that are no identifier", () => {
    expect(failure({ users: [{ "user id": 1n }] })).toBe('Cannot serialise the answer as JSON: a BigInt at $.users[0]["user id"]');
    expect(failure(5n)).toBe("Cannot serialise the answer as JSON: a BigInt at $");
  });

  it("names a cycle by both its ends; a toJSON that nests forever by the depth the walk gave up at", () => {
    const node: Record<string, unknown> = { children: [] };
    (node.children as unknown[]).push({ parent: node });
    expect(failure({ root: node })).toBe("Cannot serialise the answer as JSON: a cycle: $.root.children[0].parent is $.root again");
    const loop: { toJSON(): unknown } = { toJSON: () => ({ again: loop }) };
    expect(failure(loop)).toBe("Cannot serialise the answer as JSON: a value nested more than 100000 levels deep");
  });

  it("names a nesting too deep for the stack by its depth; a deep path shows its ends", () => {
    expect(failure({ tree: nested(30_000) })).toBe("Cannot serialise the answer as JSON: a value nested 30001 levels deep");
    expect(failure(nested(30_000, { id: 2n }))).toBe("Cannot serialise the answer as JSON: a BigInt at $[0][0][0][0][0][0]…(29988 more)…[0][0][0][0][0].id");
  });

  it("passes on what a throwing toJSON said", () => {
    expect(failure({ a: { toJSON: () => { throw new Error("no toJSON today"); } } })).toBe("Cannot serialise the answer as JSON: no toJSON today");
  });
});

describe("nestsDeeperThan", () => {
  it("counts arrays and objects as levels, and scalars as none", () => {
    expect(nestsDeeperThan(1, 0)).toBe(false);
    expect(nestsDeeperThan([], 1)).toBe(false);
    expect(nestsDeeperThan([], 0)).toBe(true);
    expect(nestsDeeperThan({ a: [{ b: "[[[[" }] }, 3)).toBe(false);
    expect(nestsDeeperThan({ a: [{ b: [] }] }, 3)).toBe(true);
  });

  it("finds one deep branch among many shallow ones, without recursing", () => {
    const wide = Array.from({ length: 10_000 }, () => ({ a: [1] }));
    expect(nestsDeeperThan([...wide, nested(100_000)], 64)).toBe(true);
    expect(nestsDeeperThan(wide, 64)).toBe(false);
  });
});
