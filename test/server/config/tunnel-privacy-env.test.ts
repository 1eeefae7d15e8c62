import { describe, expect, it } from "vitest";
import { loadEnv } from "#src/server/config/env.server";

describe("SENTRY_TUNNEL_FORWARD_IP and SENTRY_TUNNEL_SCRUB", () => {
  it("default to the address in full and no scrubbing", () => {
    const env = loadEnv({});
    expect(env.SENTRY_TUNNEL_FORWARD_IP).toBe("full");
    expect(env.SENTRY_TUNNEL_SCRUB).toBe("off");
  });

  it("read each documented value", () => {
    for (const value of ["full", "truncated", "none"] as const) expect(loadEnv({ SENTRY_TUNNEL_FORWARD_IP: value }).SENTRY_TUNNEL_FORWARD_IP).toBe(value);
    expect(loadEnv({ SENTRY_TUNNEL_SCRUB: "defaults" }).SENTRY_TUNNEL_SCRUB).toBe("defaults");
  });

  it("refuse anything else, naming the variable", () => {
    expect(() => loadEnv({ SENTRY_TUNNEL_FORWARD_IP: "anonymized" })).toThrow(/SENTRY_TUNNEL_FORWARD_IP/);
    expect(() => loadEnv({ SENTRY_TUNNEL_SCRUB: "on" })).toThrow(/SENTRY_TUNNEL_SCRUB/);
  });
});
