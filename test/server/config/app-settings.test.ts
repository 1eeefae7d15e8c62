import { _default, coerce, int, object, positive, string } from "zod/mini";
import { describe, expect, it } from "vitest";
import { EnvError, readAppSettings } from "#src/server/config/env.server";
import { route } from "#src/shared/routing/config";
import { defineSettings } from "#src/server/routing/settings";
import { loadAppRoutes } from "../../support/app-routes";
import { startTestApp } from "../../support/test-app";

const schema = () => object({ PAGE_SIZE: _default(coerce.number().check(int(), positive()), 20) });

describe("the app's own settings", () => {
  it("are validated from the environment at start and read with get(context)", () => {
    const settings = defineSettings(schema());
    expect(() => notesSettings.get(undefined as never)).toThrow(/pass the context/);
    const context = { services: { settings: readAppSettings(settings, { PAGE_SIZE: "50" }) } };
    expect(settings.get(context)).toEqual({ PAGE_SIZE: 50 });
    // Another app's values are not these settings'.
    expect(() => notesSettings.get(context)).toThrow(/not this app's/);
  });

  it("stop start-up with the platform's kind of error, naming the variable and not its value", () => {
    const settings = defineSettings(schema());
    let error: unknown;
    try {
      readAppSettings(settings, { PAGE_SIZE: "-3secret" });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(EnvError);
    expect((error as Error).message).toMatch(/^Invalid app settings:\n {2}PAGE_SIZE: /);
    expect((error as Error).message).not.toContain("-3secret");
  });
});

// An app setting of the tests' own, read by a test-only route.
const notesSettings = defineSettings(object({ NOTES_DIR: _default(string(), "notes") }));
const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const routes = await loadAppRoutes({
  routes: [route("s/dir", "s/dir.server.ts")],
  files: {
    // Read before and after a wait, so two apps' requests interleave between the reads.
    "s/dir.server.ts": {
      server: {
        load: async (context) => {
          const before = notesSettings.get(context).NOTES_DIR;
          await later(Number(context.url.searchParams.get("wait")));
          return { before, after: notesSettings.get(context).NOTES_DIR };
        },
      },
    },
  },
  app: { settings: notesSettings },
});

describe("the settings of apps started in one process", () => {
  it("are each app's own, in every request it serves, however they interleave", async () => {
    const one = await startTestApp({ NOTES_DIR: "/tmp/one" }, { routes });
    const two = await startTestApp({ NOTES_DIR: "/tmp/two" }, { routes });
    const fallback = await startTestApp({}, { routes });
    try {
      const read = (app: typeof one, wait: number) => fetch(`${app.url}/s/dir?wait=${wait}`).then((response) => response.json());
      const answers = await Promise.all([read(one, 40), read(two, 5), read(fallback, 20), read(two, 30), read(one, 0)]);
      expect(answers).toEqual([
        { before: "/tmp/one", after: "/tmp/one" },
        { before: "/tmp/two", after: "/tmp/two" },
        { before: "notes", after: "notes" },
        { before: "/tmp/two", after: "/tmp/two" },
        { before: "/tmp/one", after: "/tmp/one" },
      ]);
    } finally {
      await Promise.all([one.close(), two.close(), fallback.close()]);
    }
    // Outside any request no app's values apply: there is no process-wide copy to fall back on.
    expect(() => notesSettings.get(undefined as never)).toThrow(/pass the context/);
  });

  it("are validated when the app starts, naming the variable", async () => {
    const strict = await loadAppRoutes({ routes: [], files: {}, app: { settings: defineSettings(schema()) } });
    await expect(startTestApp({ PAGE_SIZE: "many" }, { routes: strict })).rejects.toThrow(/^Invalid app settings:\n {2}PAGE_SIZE: /);
  });
});
