import type { TestProject } from "vitest/node";

/**
 * Builds nothing itself: each build is made by the harness that needs it (test/support/builds.ts),
 * only when stale and at most once per run, judged from the time the run started given here.
 */
export default function setup(project: TestProject): void {
  project.provide("testRunStartedAt", Date.now());
  project.onTestsRerun(() => project.provide("testRunStartedAt", Date.now()));
}

declare module "vitest" {
  interface ProvidedContext {
    testRunStartedAt: number;
  }
}
