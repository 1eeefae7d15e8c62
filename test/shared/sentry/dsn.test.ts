import { describe, expect, it } from "vitest";
import { parseDsn, sameDsn } from "#src/shared/sentry/dsn";

describe("parseDsn", () => {
  it("parses a SaaS DSN with a region", () => {
    expect(parseDsn("https://abc123@o123.ingest.de.sentry.io/456")).toEqual({
      protocol: "https:",
      publicKey: "abc123",
      host: "o123.ingest.de.sentry.io",
      port: "",
      path: "",
      projectId: "456",
      orgId: "123",
      region: "de",
    });
  });

  it("parses a SaaS DSN without a region", () => {
    const dsn = parseDsn("https://abc123@o77.ingest.sentry.io/88");
    expect(dsn).toMatchObject({ host: "o77.ingest.sentry.io", orgId: "77", projectId: "88" });
    expect("region" in dsn).toBe(false);
  });

  it("parses a self-hosted DSN with port and path, without org or region", () => {
    const dsn = parseDsn("http://key_1:secret@Sentry.Example.com:9000/tools/sentry/42");
    expect(dsn).toEqual({
      protocol: "http:",
      publicKey: "key_1",
      host: "sentry.example.com",
      port: "9000",
      path: "/tools/sentry",
      projectId: "42",
    });
  });

  it("treats the default port as no port and keeps IPv6 brackets", () => {
    expect(parseDsn("https://k@sentry.example.com:443/1").port).toBe("");
    expect(parseDsn("http://k@[::1]:8080/1")).toMatchObject({ host: "[::1]", port: "8080" });
  });

  it("does not take look-alike hosts for SaaS", () => {
    for (const host of ["o1.ingest.sentry.io.evil.com", "o1.ingest.de.evil.sentry.io", "x.o1.ingest.sentry.io", "oo1.ingest.sentry.io"]) {
      expect(parseDsn(`https://k@${host}/1`).orgId).toBeUndefined();
    }
  });

  it.each([
    ["", "not a URL"],
    ["not a dsn", "not a URL"],
    ["ftp://k@example.com/1", "protocol must be http: or https:"],
    ["https://example.com/1", "missing public key"],
    ["https://k-ey@example.com/1", "public key has unexpected characters"],
    ["https://k@example.com/", "project id must be digits"],
    ["https://k@example.com", "project id must be digits"],
    ["https://k@example.com/abc", "project id must be digits"],
    ["https://k@example.com/1/", "project id must be digits"],
    ["https://k@example.com/1?x=1", "unexpected query or fragment"],
    ["https://k@example.com/1#x", "unexpected query or fragment"],
  ])("rejects %j", (dsn, message) => {
    expect(() => parseDsn(dsn)).toThrow(/^Invalid Sentry DSN: /);
    expect(() => parseDsn(dsn)).toThrow(message);
  });
});

describe("sameDsn", () => {
  const base = "https://abc@sentry.example.com:8443/prefix/42";

  it("ignores the secret key and letter case of the host", () => {
    expect(sameDsn(parseDsn(base), parseDsn("https://abc:secret@SENTRY.example.com:8443/prefix/42"))).toBe(true);
  });

  it.each([
    ["protocol", "http://abc@sentry.example.com:8443/prefix/42"],
    ["public key", "https://abd@sentry.example.com:8443/prefix/42"],
    ["host", "https://abc@sentry.example.org:8443/prefix/42"],
    ["port", "https://abc@sentry.example.com:8444/prefix/42"],
    ["path", "https://abc@sentry.example.com:8443/other/42"],
    ["project", "https://abc@sentry.example.com:8443/prefix/43"],
  ])("tells DSNs apart by %s", (_part, other) => {
    expect(sameDsn(parseDsn(base), parseDsn(other))).toBe(false);
  });
});
