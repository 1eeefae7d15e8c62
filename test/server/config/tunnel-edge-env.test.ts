import { describe, expect, it } from "vitest";
import { loadEnv } from "#src/server/config/env.server";

describe("the tunnel's client reports, filters and project quota in the environment", () => {
  it("defaults to a report a minute, no filter and no quota", () => {
    const env = loadEnv({});
    expect(env.SENTRY_TUNNEL_CLIENT_REPORT_INTERVAL_S).toBe(60);
    expect(env.SENTRY_TUNNEL_FILTERS).toEqual([]);
    expect(env.SENTRY_TUNNEL_PROJECT_QUOTA).toBeUndefined();
  });

  it("reads each filter, an interval (0 turns reports off) and a quota per minute or hour", () => {
    const env = loadEnv({
      SENTRY_TUNNEL_FILTERS: "browser-extensions, localhost,web-crawlers",
      SENTRY_TUNNEL_CLIENT_REPORT_INTERVAL_S: "0",
      SENTRY_TUNNEL_PROJECT_QUOTA: "500/hour",
    });
    expect(env.SENTRY_TUNNEL_FILTERS).toEqual(["browser-extensions", "localhost", "web-crawlers"]);
    expect(env.SENTRY_TUNNEL_CLIENT_REPORT_INTERVAL_S).toBe(0);
    expect(env.SENTRY_TUNNEL_PROJECT_QUOTA).toEqual({ points: 500, durationSeconds: 3600 });
  });

  it("refuses an unknown filter or a quota in another form, naming the variable", () => {
    expect(() => loadEnv({ SENTRY_TUNNEL_FILTERS: "legacy-browsers" })).toThrow(/SENTRY_TUNNEL_FILTERS/);
    expect(() => loadEnv({ SENTRY_TUNNEL_PROJECT_QUOTA: "100/day" })).toThrow(/SENTRY_TUNNEL_PROJECT_QUOTA.*N\/minute or N\/hour/s);
    expect(() => loadEnv({ SENTRY_TUNNEL_CLIENT_REPORT_INTERVAL_S: "-1" })).toThrow(/SENTRY_TUNNEL_CLIENT_REPORT_INTERVAL_S/);
  });
});
