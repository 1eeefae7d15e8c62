declare const __OUTPOST_BUILD_ID__: string | undefined;

/** Set by scripts/build through esbuild's define; "development" when running from source. */
export const BUILD_ID: string =
  typeof __OUTPOST_BUILD_ID__ === "string" ? __OUTPOST_BUILD_ID__ : "development";
