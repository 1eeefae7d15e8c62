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
});
