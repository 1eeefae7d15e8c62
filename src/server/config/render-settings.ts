import type { RuntimeConfig } from "../../shared/document/payload";
import type { BuildManifest } from "../assets/manifest";
import type { Env } from "./env.server";

/** How this app's pages are rendered: fixed at start from the environment and the loaded build, made once and passed down whole. */
export interface RenderSettings {
  /** Development only: error pages show the message and stack. */
  exposeErrors: boolean;
  /** Bounds how long a render, and the deferred values streamed after it, may take (RENDER_TIMEOUT_MS). */
  renderTimeoutMs: number;
  /** The loaded build: its id, its entry script and each route's assets. */
  manifest: BuildManifest;
  /** The browser's runtime config, chosen at start: one build serves every environment. */
  runtimeConfig: RuntimeConfig;
}

export function renderSettings(env: Env, manifest: BuildManifest, runtimeConfig: RuntimeConfig): RenderSettings {
  return { exposeErrors: env.NODE_ENV === "development", renderTimeoutMs: env.RENDER_TIMEOUT_MS, manifest, runtimeConfig };
}
