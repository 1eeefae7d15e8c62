import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.{ts,tsx}"],
    // One production build for the whole run: integration and browser tests serve it.
    globalSetup: ["test/support/global-setup.ts"],
    pool: "forks",
    // Two cores here: one worker per core, the servers they start share them.
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
