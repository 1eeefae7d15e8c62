import { describe, expect, it } from "vitest";
import { parseTunnelQuery } from "#src/server/tunnel/check/query";

describe("parseTunnelQuery", () => {
  it.each([
    ["p=42", { p: "42" }],
    ["o=1&p=42", { o: "1", p: "42" }],
    ["o=1&p=42&r=us-east-1", { o: "1", p: "42", r: "us-east-1" }],
  ])("accepts %s", (query, expected) => {
    expect(parseTunnelQuery(query)).toEqual({ ok: true, query: expected });
  });

  it.each(["", "o=1", "p=", "p=4a", "p=42&x=1", "p=42&p=42", "p=42&r=de", `p=${"1".repeat(21)}`, "p=42&o=1&r=a.b"])(
    "rejects %j",
    (query) => {
      expect(parseTunnelQuery(query).ok).toBe(false);
    },
  );

  it.each(["__proto__", "constructor", "toString", "hasOwnProperty"])("calls %s an unexpected parameter, not a duplicate", (name) => {
    expect(parseTunnelQuery(`p=42&${name}=1`)).toEqual({ ok: false, detail: "unexpected query parameter" });
    expect(parseTunnelQuery(`${name}=1&p=42`)).toEqual({ ok: false, detail: "unexpected query parameter" });
  });

  it("names the duplicated and the invalid parameter", () => {
    expect(parseTunnelQuery("p=42&p=43")).toEqual({ ok: false, detail: "duplicate query parameter p" });
    expect(parseTunnelQuery("o=x&p=42")).toEqual({ ok: false, detail: "invalid query parameter o" });
  });
});
