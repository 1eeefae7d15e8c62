import { describe, expect, it } from "vitest";
import { parseDsn } from "#src/shared/sentry/dsn";
import { queryMatchesDsn, upstreamFor, upstreamLabels } from "#src/server/tunnel/check/upstream-url";

describe("upstreamFor", () => {
  it("builds SaaS URLs from org, region and project only", () => {
    expect(upstreamFor(parseDsn("https://k@o123.ingest.de.sentry.io/456"))).toEqual({
      origin: "https://o123.ingest.de.sentry.io",
      path: "/api/456/envelope/?hsts=0",
    });
    expect(upstreamFor(parseDsn("http://k@o5.ingest.sentry.io:8080/6"))).toEqual({
      origin: "https://o5.ingest.sentry.io",
      path: "/api/6/envelope/?hsts=0",
    });
  });

  it("keeps protocol, host, port and path of other DSNs", () => {
    expect(upstreamFor(parseDsn("http://k@sentry.internal:9000/tools/42"))).toEqual({
      origin: "http://sentry.internal:9000",
      path: "/tools/api/42/envelope/",
    });
    expect(upstreamFor(parseDsn("https://k@[::1]/7"))).toEqual({ origin: "https://[::1]", path: "/api/7/envelope/" });
  });

  it("matches queries to DSNs", () => {
    const saas = parseDsn("https://k@o1.ingest.us.sentry.io/2");
    expect(queryMatchesDsn({ o: "1", p: "2", r: "us" }, saas)).toBe(true);
    expect(queryMatchesDsn({ o: "1", p: "2" }, saas)).toBe(false);
    const own = parseDsn("https://k@sentry.internal/2");
    expect(queryMatchesDsn({ p: "2" }, own)).toBe(true);
    expect(queryMatchesDsn({ o: "1", p: "2" }, own)).toBe(false);
  });
});

describe("upstreamLabels", () => {
  it("names configured upstreams by host (and port) and folds any other origin into one label", () => {
    const label = upstreamLabels([
      upstreamFor(parseDsn("https://k@o1.ingest.us.sentry.io/2")),
      upstreamFor(parseDsn("https://k@o1.ingest.de.sentry.io/3")),
      upstreamFor(parseDsn("http://k@127.0.0.1:9000/4")),
    ]);
    expect(label("https://o1.ingest.us.sentry.io")).toBe("o1.ingest.us.sentry.io");
    expect(label("https://o1.ingest.de.sentry.io")).toBe("o1.ingest.de.sentry.io");
    expect(label("http://127.0.0.1:9000")).toBe("127.0.0.1:9000");
    expect(label("https://attacker.example")).toBe("other");
    expect(label("http://127.0.0.1:9001")).toBe("other");
  });
});
