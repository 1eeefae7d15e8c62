import { RateLimiter } from "../http/rate-limit";
import type { FeedbackErrors, FeedbackValues } from "../../shared/feedback/fields";
import { bodyRecord, type Feedback, parseFeedback, typedValues } from "./feedback-form";

/** Sends one piece of feedback to error reporting; returns the feedback event's id. */
export type SendFeedback = (feedback: Feedback) => string;

export type FeedbackSubmission =
  | { status: "sent"; eventId: string }
  | { status: "invalid"; errors: FeedbackErrors; values: FeedbackValues }
  | { status: "rate_limited"; retryAfterSeconds: number; values: FeedbackValues }
  | { status: "unavailable"; values: FeedbackValues };

export interface FeedbackService {
  /** False without SENTRY_DSN: the pages say so and submissions are 503. */
  readonly available: boolean;
  submit(body: unknown, clientIp: string): FeedbackSubmission;
}

export const FEEDBACK_RATE_LIMIT_PER_MINUTE = 5;
const MAX_CLIENTS = 10_000;

/**
 * Validates and sends feedback, at most FEEDBACK_RATE_LIMIT_PER_MINUTE per client IP (per
 * instance, like the tunnel's limit). Only valid submissions use up the allowance: they are
 * what costs an event, and a visitor correcting a typo should not be locked out.
 */
export function createFeedbackService(send: SendFeedback | undefined, perMinute = FEEDBACK_RATE_LIMIT_PER_MINUTE): FeedbackService {
  const limiter = new RateLimiter(perMinute, MAX_CLIENTS);
  return {
    available: send !== undefined,
    submit(body, clientIp) {
      // Refused or not, the form comes back as typed: the visitor's text is never lost.
      if (!send) return { status: "unavailable", values: typedValues(bodyRecord(body)) };
      const parsed = parseFeedback(body);
      if (!parsed.ok) return { status: "invalid", errors: parsed.errors, values: parsed.values };
      const decision = limiter.take(clientIp || "unknown");
      if (!decision.ok) return { status: "rate_limited", retryAfterSeconds: decision.retryAfterSeconds, values: typedValues(bodyRecord(body)) };
      return { status: "sent", eventId: send(parsed.feedback) };
    },
  };
}
