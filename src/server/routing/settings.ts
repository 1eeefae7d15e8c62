/** What a settings schema offers: zod's (or zod/mini's) `safeParse`. */
export interface SettingsSchema<Value> {
  safeParse(input: unknown): { success: true; data: Value } | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

/** The settings of the app serving the current request, when the server gives each app its own (tests). */
export type ScopedSettings = () => ReadonlyMap<AppSettings<unknown>, unknown> | undefined;
let scoped: ScopedSettings | undefined;

/** The server tells `get()` where to look first; code for the browser never calls it. */
export function lookUpScopedSettings(lookup: ScopedSettings): void {
  scoped = lookup;
}

/**
 * The app's own settings, read from the environment and validated at start as the platform's
 * are (an invalid value stops start-up, naming the variable). Routes and middleware read them
 * with `get()`: the process's values, or inside a request those of the app serving it, when it
 * was given its own (two test apps in one process).
 */
export class AppSettings<Value> {
  #value: { current: Value } | undefined;

  constructor(readonly schema: SettingsSchema<Value>) {}

  get loaded(): boolean {
    return this.#value !== undefined;
  }

  /** The platform calls this once at start with the validated values. */
  use(value: Value): void {
    this.#value = { current: value };
  }

  get(): Value {
    const own = scoped?.();
    if (own?.has(this)) return own.get(this) as Value;
    if (!this.#value) throw new Error("the app's settings are read before the server validated them at start");
    return this.#value.current;
  }
}

export function defineSettings<Value>(schema: SettingsSchema<Value>): AppSettings<Value> {
  return new AppSettings(schema);
}
