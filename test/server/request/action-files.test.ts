import { afterAll, beforeAll, expect, it } from "vitest";
import { BUILD_HEADER } from "#src/shared/routing/data-request";
import { startTestApp, type TestApp } from "../../support/test-app";

// A route with `uploads` gets the files it accepted in its action's context.
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

it("an action reads the files its route accepted, by field, with name, type, size and contents", async () => {
  const body = new FormData();
  body.append("note", "hello");
  body.append("attachment", new Blob(["first file"], { type: "text/plain" }), "a.txt");
  body.append("attachment", new Blob(["second"], { type: "application/octet-stream" }), "b.bin");
  const response = await fetch(`${app.url}/__data/test/upload`, { method: "POST", body, headers: { [BUILD_HEADER]: app.deps.assets.manifest.buildId } });
  expect(response.status).toBe(200);
  const answer = (await response.json()) as { state: { actionData: unknown } };
  expect(answer.state.actionData).toEqual({
    attachment: [
      { name: "a.txt", type: "text/plain", size: 10, text: "first file" },
      { name: "b.bin", type: "application/octet-stream", size: 6, text: "second" },
    ],
  });
});

it("an action without file parts sees no files", async () => {
  const body = new FormData();
  body.append("note", "hello");
  const response = await fetch(`${app.url}/__data/test/upload`, { method: "POST", body, headers: { [BUILD_HEADER]: app.deps.assets.manifest.buildId } });
  expect(((await response.json()) as { state: { actionData: unknown } }).state.actionData).toEqual({});
});
