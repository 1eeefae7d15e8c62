import { describe, expect, it } from "vitest";
import { compileAllowlist } from "#src/server/tunnel/check/allowlist";

describe("Allowlist", () => {
  const allowed = "https://abc@o1.ingest.sentry.io/42";
  const allowlist = compileAllowlist([allowed, "http://key@127.0.0.1:9000/7"]);

  it("finds the entry a DSN names, in any form that parses to it, the same on every call", () => {
    for (let round = 0; round < 3; round++) {
      expect(allowlist.match(allowed)?.upstream.path).toBe("/api/42/envelope/?hsts=0");
      expect(allowlist.match("https://abc@O1.INGEST.SENTRY.IO/42")?.upstream.path).toBe("/api/42/envelope/?hsts=0");
      expect(allowlist.match("http://key@127.0.0.1:9000/7")?.upstream.origin).toBe("http://127.0.0.1:9000");
    }
  });

  it("refuses other DSNs and non-DSNs on every call, however many allowed forms it has seen", () => {
    // More distinct allowed strings than it remembers: the rest are parsed each time, still right.
    for (let n = 0; n < 40; n++) expect(allowlist.match(`https://abc@o1.ingest.sentry.io${"/".repeat(n + 1)}42`)).toBeDefined();
    for (let round = 0; round < 3; round++) {
      expect(allowlist.match("https://abc@o1.ingest.sentry.io/43")).toBeUndefined();
      expect(allowlist.match("https://other@o1.ingest.sentry.io/42")).toBeUndefined();
      expect(() => allowlist.match("not a dsn")).toThrow(/Invalid Sentry DSN/);
    }
  });
});
