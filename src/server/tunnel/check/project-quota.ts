import type { Limiter, RateDecision } from "../../limits/limiter";
import type { Upstream } from "./upstream-url";

/** SENTRY_TUNNEL_PROJECT_QUOTA: envelopes per project per window. */
export interface ProjectQuota {
  points: number;
  durationSeconds: number;
}

const QUOTA = /^(\d+)\/(minute|hour)$/;

/** `N/minute` or `N/hour` (N ≥ 1); undefined for `off` or empty; throws a message naming the form otherwise. */
export function parseProjectQuota(text: string | undefined): ProjectQuota | undefined {
  const value = text?.trim() ?? "";
  if (value === "" || value === "off") return undefined;
  const match = QUOTA.exec(value);
  const points = Number(match?.[1]);
  if (!match || !Number.isSafeInteger(points) || points < 1) throw new Error("expected N/minute or N/hour with N a positive whole number, or off");
  return { points, durationSeconds: match[2] === "hour" ? 3600 : 60 };
}

/** The key a project's quota is counted by: its ingest's envelope URL, one per DSN project. */
export const projectKey = (upstream: Upstream): string => upstream.origin + upstream.path;

/** What the SDK reads to hold the whole project for that long (Sentry's `retry_after:categories:scope:reason`). */
export const quotaRateLimitHeader = (retryAfterSeconds: number): string => `${retryAfterSeconds}::project:tunnel_quota`;

export const takeQuota = (limiter: Limiter, upstream: Upstream): RateDecision | Promise<RateDecision> => limiter.take(projectKey(upstream));
