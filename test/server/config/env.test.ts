import { describe, expect, it } from "vitest";
import { EnvError, browserDsn, loadEnv } from "#src/server/config/env.server";

describe("loadEnv", () => {
  it("fills documented defaults", () => {
    const env = loadEnv({});
    expect(env).toMatchObject({
      NODE_ENV: "production",
      HOST: "0.0.0.0",
      PORT: 3000,
      METRICS_PORT: 9464,
      TRUST_PROXY: false,
      ENABLE_DIAGNOSTIC_ROUTES: false,
      SHUTDOWN_TIMEOUT_MS: 10_000,
      SENTRY_TRACES_SAMPLE_RATE: 0,
      SENTRY_TUNNEL_PATH: "/monitoring",
      SENTRY_TUNNEL_ALLOWED_DSNS: [],
      BODY_MAX_BYTES: 65_536,
      BODY_MAX_FIELDS: 1_000,
      ALLOWED_ORIGINS: [],
      ASSET_RETENTION_HOURS: 24,
      ASSET_PUBLISH_MAX_MB: 50,
      RATE_LIMIT_IPV6_PREFIX: 64,
    });
    expect(env.SENTRY_DSN).toBeUndefined();
  });

  it("treats empty values as unset", () => {
    const env = loadEnv({ PORT: "", SENTRY_DSN: "" });
    expect(env.PORT).toBe(3000);
    expect(env.SENTRY_DSN).toBeUndefined();
  });

  it("takes fractions of an hour and of a MiB for the shared assets", () => {
    expect(loadEnv({ ASSET_RETENTION_HOURS: "0.5", ASSET_PUBLISH_MAX_MB: "2.5" })).toMatchObject({ ASSET_RETENTION_HOURS: 0.5, ASSET_PUBLISH_MAX_MB: 2.5 });
  });

  it("parses flags and numbers", () => {
    const env = loadEnv({ TRUST_PROXY: "true", PORT: "8080", SENTRY_TRACES_SAMPLE_RATE: "0.25", RATE_LIMIT_IPV6_PREFIX: "56" });
    expect(env).toMatchObject({ TRUST_PROXY: true, PORT: 8080, SENTRY_TRACES_SAMPLE_RATE: 0.25, RATE_LIMIT_IPV6_PREFIX: 56 });
  });

  it.each([
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["TRUST_PROXY", "yes"],
    ["SENTRY_TRACES_SAMPLE_RATE", "2"],
    ["SENTRY_DSN", "not a dsn"],
    ["SENTRY_TUNNEL_ALLOWED_DSNS", "https://key@o1.ingest.sentry.io/1,nonsense"],
    ["SENTRY_TUNNEL_PATH", "monitoring"],
    ["NODE_ENV", "staging"],
    ["BODY_MAX_BYTES", "0"],
    ["BODY_MAX_FIELDS", "0"],
    ["BODY_MAX_FIELDS", "many"],
    ["SENTRY_TUNNEL_SPOOL_MAX_MEMORY_BYTES", "0"],
    ["ALLOWED_ORIGINS", "https://example.com/path"],
    ["ALLOWED_ORIGINS", "https://ok.example,*"],
    ["ALLOWED_ORIGINS", "ftp://files.example"],
    ["ALLOWED_ORIGINS", "https://user:pw@example.com"],
    ["ASSET_RETENTION_HOURS", "0"],
    ["ASSET_RETENTION_HOURS", "-1"],
    ["ASSET_RETENTION_HOURS", "a day"],
    ["ASSET_RETENTION_HOURS", "9000"],
    ["ASSET_PUBLISH_MAX_MB", "0"],
    ["ASSET_PUBLISH_MAX_MB", "2000"],
    ["RATE_LIMIT_IPV6_PREFIX", "0"],
    ["RATE_LIMIT_IPV6_PREFIX", "129"],
    ["RATE_LIMIT_IPV6_PREFIX", "48.5"],
  ])("names %s when it is %j", (name, value) => {
    expect(() => loadEnv({ [name]: value })).toThrow(EnvError);
    expect(() => loadEnv({ [name]: value })).toThrow(new RegExp(`${name}[.:]`));
  });

  it("wants the spool's memory budget to hold its largest envelope", () => {
    expect(loadEnv({}).SENTRY_TUNNEL_SPOOL_MAX_MEMORY_BYTES).toBe(2 * 1024 * 1024);
    const small = { SENTRY_TUNNEL_SPOOL_MAX_MEMORY_BYTES: "1000", SENTRY_TUNNEL_SPOOL_MAX_ENVELOPE_BYTES: "1001" };
    expect(() => loadEnv(small)).toThrow(/SENTRY_TUNNEL_SPOOL_MAX_ENVELOPE_BYTES.*SENTRY_TUNNEL_SPOOL_MAX_MEMORY_BYTES/);
  });

  it("normalises ALLOWED_ORIGINS as browsers send origins", () => {
    const env = loadEnv({ ALLOWED_ORIGINS: " https://Admin.Example.org/, http://partner.example:8080,https://x.example:443 " });
    expect(env.ALLOWED_ORIGINS).toEqual(["https://admin.example.org", "http://partner.example:8080", "https://x.example"]);
  });

  it("takes the browser DSN from PUBLIC_SENTRY_DSN, else SENTRY_DSN", () => {
    const server = "https://server@o1.ingest.sentry.io/1";
    const browser = "https://browser@o1.ingest.sentry.io/2";
    expect(browserDsn(loadEnv({ SENTRY_DSN: server }))).toBe(server);
    expect(browserDsn(loadEnv({ SENTRY_DSN: server, PUBLIC_SENTRY_DSN: browser }))).toBe(browser);
  });
});
