import { once } from "node:events";
import { afterEach, expect, it } from "vitest";
import { drain } from "#src/server/lifecycle/graceful-shutdown";
import { startTestApp, type TestApp } from "../../support/test-app";
import { testRoutes } from "../../support/test-routes";

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const startDrain = (target: TestApp, deadlineMs: number, afterDrain?: (deadline: number) => Promise<void>) =>
  drain({ server: target.server, readiness: target.deps.readiness, logger: target.deps.logger, deadlineMs, afterDrain });

it("lets an in-flight request finish, refuses new ones, then runs the after-drain step", async () => {
  app = await startTestApp({}, { routes: testRoutes });
  const arrived = once(app.server, "request");
  const inFlight = fetch(`${app.url}/test/slow/400`);
  await arrived;
  let afterDrainDeadline: number | undefined;
  const signalled = Date.now();
  const drained = startDrain(app, 5_000, async (deadline) => {
    afterDrainDeadline = deadline;
  });
  const called = Date.now();
  expect(app.deps.readiness.ready).toBe(false);
  await expect(fetch(`${app.url}/healthz`)).rejects.toThrow();
  const response = await inFlight;
  expect(response.status).toBe(200);
  expect(await response.text()).toContain("waited 400 ms");
  expect(await drained).toEqual({ timedOut: false });
  // The after-drain steps (the spool's delivery) share the deadline counted from the signal.
  expect(afterDrainDeadline).toBeGreaterThanOrEqual(signalled + 5_000);
  expect(afterDrainDeadline).toBeLessThanOrEqual(called + 5_000);
});

it("cuts requests still running at the deadline", async () => {
  app = await startTestApp({}, { routes: testRoutes });
  const arrived = once(app.server, "request");
  const inFlight = fetch(`${app.url}/test/slow/3000`).then(
    (response) => response.status,
    () => "cut",
  );
  await arrived;
  const started = Date.now();
  expect(await startDrain(app, 300)).toEqual({ timedOut: true });
  expect(Date.now() - started).toBeLessThan(2_000);
  expect(await inFlight).toBe("cut");
});
