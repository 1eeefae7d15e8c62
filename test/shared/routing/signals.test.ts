import { describe, expect, it } from "vitest";
import { type RedirectStatus, redirect, RedirectSignal } from "#src/shared/routing/signals";

const thrown = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("nothing was thrown");
};

describe("redirect()", () => {
  it("takes the five redirect statuses, as a number or in its init", () => {
    for (const status of [301, 302, 303, 307, 308] as const) {
      expect(thrown(() => redirect("/x", status))).toMatchObject({ status, location: "/x" });
      expect(thrown(() => redirect("/x", { status }))).toBeInstanceOf(RedirectSignal);
    }
    expect(thrown(() => redirect("/x"))).toMatchObject({ status: 307 });
  });

  it("throws a RangeError naming any other status", () => {
    for (const status of [200, 300, 304, 404, 500, 99, 1000, 307.5, Number.NaN]) {
      const error = thrown(() => redirect("/x", status as RedirectStatus));
      expect(error).toBeInstanceOf(RangeError);
      expect((error as Error).message).toBe(`redirect takes a status of 301, 302, 303, 307 or 308, got ${status}`);
      expect(thrown(() => redirect("/x", { status: status as RedirectStatus }))).toBeInstanceOf(RangeError);
    }
  });
});
