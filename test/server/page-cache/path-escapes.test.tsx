import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route } from "#src/shared/routing/config";
import { loadAppRoutes } from "../../support/app-routes";
import { send } from "../../support/raw-http";
import { startTestApp, type TestApp } from "../../support/test-app";

// A param reaches the page decoded, so `/x/%61` and `/x/a` (or `%C3%A9` and `%c3%a9`) are one
// page: revalidatePath drops every spelling, given the path as a param makes it (`/x/${slug}`) or escaped.

const routes = await loadAppRoutes({
  routes: [route("test/notes/:slug", "test/note.tsx")],
  files: {
    "test/note.tsx": {
      module: { default: ({ data }: { data: { id: string } }) => <p id="render-id">{data.id}</p> },
      server: { cache: { maxAge: 60 }, load: () => ({ id: `${Math.random()}` }) },
    },
  },
});

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({}, { routes });
});
afterAll(() => app.close());

const status = async (path: string) => (await send(Number(new URL(app.url).port), path, { method: "GET" })).headers["cache-status"];

describe("revalidatePath of a page whose path holds escapes", () => {
  for (const [given, spellings] of [
    ["/test/notes/café", ["/test/notes/caf%C3%A9", "/test/notes/caf%c3%a9"]],
    ["/test/notes/caf%C3%A9", ["/test/notes/caf%C3%A9", "/test/notes/caf%c3%a9"]],
    ["/test/notes/a b", ["/test/notes/a%20b"]],
    ["/test/notes/a", ["/test/notes/a", "/test/notes/%61"]],
    ["/test/notes/100%", ["/test/notes/100%25"]],
  ] as const) {
    it(`${given} drops ${spellings.join(" and ")}`, async () => {
      for (const path of spellings) {
        await status(path);
        expect(await status(path)).toBe("outpost; hit");
      }
      await app.deps.services.pageCache?.revalidatePath(given);
      for (const path of spellings) expect(await status(path)).toBe("outpost; fwd=miss; stored");
    });
  }
});
