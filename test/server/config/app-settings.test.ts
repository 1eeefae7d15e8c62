import { _default, coerce, int, object, positive } from "zod/mini";
import { describe, expect, it } from "vitest";
import { EnvError, loadAppSettings } from "#src/server/config/env.server";
import { defineSettings } from "#src/shared/routing/settings";
import { settings as shippedSettings } from "#src/app/app.server";

const schema = () => object({ PAGE_SIZE: _default(coerce.number().check(int(), positive()), 20) });

describe("the app's own settings", () => {
  it("are validated from the environment at start and read with get()", () => {
    const settings = defineSettings(schema());
    expect(() => settings.get()).toThrow(/before the server validated them/);
    loadAppSettings(settings, { PAGE_SIZE: "50" });
    expect(settings.get()).toEqual({ PAGE_SIZE: 50 });
  });

  it("stop start-up with the platform's kind of error, naming the variable and not its value", () => {
    const settings = defineSettings(schema());
    let error: unknown;
    try {
      loadAppSettings(settings, { PAGE_SIZE: "-3secret" });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(EnvError);
    expect((error as Error).message).toMatch(/^Invalid app settings:\n {2}PAGE_SIZE: /);
    expect((error as Error).message).not.toContain("-3secret");
  });

  it("are what the shipped app declares beside its route table, with defaults", () => {
    const fresh = defineSettings(shippedSettings.schema);
    loadAppSettings(fresh, {});
    expect(fresh.get()).toEqual({ GREETING: "Hello" });
  });
});
