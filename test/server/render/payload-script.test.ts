import { expect, it } from "vitest";
import { type DocumentPayload, PAYLOAD_GLOBAL, type RuntimeConfig } from "#src/shared/document/payload";
import { serializeForScript } from "#src/shared/document/serialize";
import type { RouteState } from "#src/shared/routing/route-state";
import { payloadScript } from "#src/server/render/payload-script";

const config: RuntimeConfig = {
  sentryDsn: null,
  tunnelPath: "/monitoring",
  environment: "\u2028staging",
  release: "</script><script>alert(1)</script>",
  tracesSampleRate: 0,
  diagnostics: false,
  feedbackPage: { path: "/feedback", available: true },
  favicon: true,
};

it("is byte for byte the whole payload serialized, with its fields in order", () => {
  const state: RouteState = {
    pattern: "/",
    matches: [{ id: "Layout", params: {} }],
    data: { "Layout": { text: "<&>" } },
    error: undefined,
    actionData: undefined,
    styles: ["/a.css"],
  };
  const traceMeta = { "sentry-trace": "abc-def-1" };
  const payload: DocumentPayload = { state, buildId: "b1", traceMeta, config };
  expect(payloadScript("b1", config)(state, traceMeta)).toBe(`window.${PAYLOAD_GLOBAL}=${serializeForScript(payload)}`);
});

it("writes an empty trace (tracing off, a cached page) as serializing it would, and a trace with keys in full", () => {
  const state: RouteState = { pattern: "/", matches: [], data: {}, styles: [] };
  const script = payloadScript("b1", config);
  expect(script(state, {})).toBe(`window.${PAYLOAD_GLOBAL}=${serializeForScript({ state, buildId: "b1", traceMeta: {}, config })}`);
  const traceMeta = { baggage: "a=<b>" };
  expect(script(state, traceMeta)).toBe(`window.${PAYLOAD_GLOBAL}=${serializeForScript({ state, buildId: "b1", traceMeta, config })}`);
});
