/** What a settings schema offers: zod's (or zod/mini's) `safeParse`. */
export interface SettingsSchema<Value> {
  safeParse(input: unknown): { success: true; data: Value } | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

/** The values an app's settings were validated to, by the server that built the app; every request context carries its app's. */
export interface SettingsValues {
  /** The values of `settings`; throws when this app was not built with them. */
  of<Value>(settings: AppSettings<Value>): Value;
}

declare module "../../shared/routing/request" {
  interface RouteServices {
    /** The app's own settings, validated at start: read them with `settings.get(context)`. */
    settings: SettingsValues;
  }
}

/** What `get` reads the settings from: any request context (loaders, actions, middleware, resource routes). */
export interface SettingsReader {
  readonly services: { readonly settings: SettingsValues };
}

/**
 * The app's own settings, read from the environment and validated at start as the platform's
 * are (an invalid value stops start-up, naming the variable). Route code reads them from its
 * request context, `settings.get(context)`: the values of the app serving that request, so
 * two apps in one process (tests) each read their own.
 */
export class AppSettings<Value> {
  constructor(readonly schema: SettingsSchema<Value>) {}

  get(context: SettingsReader): Value {
    // A call without the context (the API before it took one) should say what to pass, not fail on `undefined`.
    if (!context?.services?.settings) throw new TypeError("settings.get(context) reads the app's settings from the request context: pass the context your loader, action or middleware was given");
    return context.services.settings.of(this);
  }
}

export function defineSettings<Value>(schema: SettingsSchema<Value>): AppSettings<Value> {
  return new AppSettings(schema);
}

/** The values of one app's settings (none when it declares none); the server makes them at start. */
export function settingsValues<Value>(settings: AppSettings<Value> | undefined, value: Value): SettingsValues {
  return {
    of<Wanted>(wanted: AppSettings<Wanted>): Wanted {
      if (wanted !== (settings as unknown)) throw new Error("these settings are not this app's: export them as `settings` from src/app/app.server.ts");
      return value as unknown as Wanted;
    },
  };
}
