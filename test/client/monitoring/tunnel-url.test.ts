import { describe, expect, it } from "vitest";
import { tunnelUrl } from "#src/client/monitoring/tunnel-url";

describe("tunnelUrl", () => {
  it("names org, project and region for a SaaS DSN", () => {
    expect(tunnelUrl("https://abc@o123.ingest.de.sentry.io/456")).toBe("/monitoring?o=123&p=456&r=de");
  });

  it("leaves the region out when the SaaS DSN has none", () => {
    expect(tunnelUrl("https://abc@o123.ingest.sentry.io/456")).toBe("/monitoring?o=123&p=456");
  });

  it("names only the project for a self-hosted DSN, whatever its port and path", () => {
    expect(tunnelUrl("http://abc@sentry.internal:9000/sentry/42")).toBe("/monitoring?p=42");
  });

  it("uses the given tunnel path", () => {
    expect(tunnelUrl("https://abc@o1.ingest.sentry.io/2", "/t")).toBe("/t?o=1&p=2");
  });

  it("throws on a malformed DSN", () => {
    expect(() => tunnelUrl("https://o1.ingest.sentry.io/2")).toThrow("Invalid Sentry DSN: missing public key");
  });
});
