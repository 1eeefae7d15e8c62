import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // Tests import the sources as #src/… rather than ../../../src/…, wherever they sit.
  resolve: { alias: [{ find: /^#src\//, replacement: fileURLToPath(new URL("./src/", import.meta.url)) }] },
  test: {
    include: ["test/**/*.test.{ts,tsx}"],
    // Gives the run's start time: the harnesses build dist/ and dist/fixture/ when stale, once per run (test/support/builds.ts).
    globalSetup: ["test/support/global-setup.ts"],
    pool: "forks",
    // Two cores here: one worker per core, the servers they start share them.
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
