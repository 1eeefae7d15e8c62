import { BUILD_ID } from "./build-info";
import type { Env } from "../config/env.server";

/** One environment and release for server and browser events alike. */
export function sentryEnvironment(env: Env): string {
  return env.SENTRY_ENVIRONMENT ?? env.NODE_ENV;
}

export function sentryRelease(env: Env): string {
  return env.SENTRY_RELEASE ?? BUILD_ID;
}
