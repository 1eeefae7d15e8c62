import type { Limiter } from "../limits/limiter";
import { LocalLimiter } from "../limits/local-limiter";
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
  submit(body: unknown, clientIp: string): Promise<FeedbackSubmission>;
}

export const FEEDBACK_RATE_LIMIT_PER_MINUTE = 5;
const MAX_CLIENTS = 10_000;

/** The feedback limit of one process; with Redis the app passes a shared one of the same numbers. */
export const localFeedbackLimiter = (): Limiter => new LocalLimiter(FEEDBACK_RATE_LIMIT_PER_MINUTE, 60_000, MAX_CLIENTS);

/**
 * Validates and sends feedback, at most FEEDBACK_RATE_LIMIT_PER_MINUTE per client IP (per
 * IP, shared by the replicas when they share a Redis, as the tunnel's limit is. Only valid submissions use up the allowance: they are
 * what costs an event, and a visitor correcting a typo should not be locked out.
 */
export function createFeedbackService(send: SendFeedback | undefined, limiter: Limiter = localFeedbackLimiter()): FeedbackService {
  return {
    available: send !== undefined,
    async submit(body, clientIp) {
      // Refused or not, the form comes back as typed: the visitor's text is never lost.
      if (!send) return { status: "unavailable", values: typedValues(bodyRecord(body)) };
      const parsed = parseFeedback(body);
      if (!parsed.ok) return { status: "invalid", errors: parsed.errors, values: parsed.values };
      const decision = await limiter.take(clientIp || "unknown");
      if (!decision.ok) return { status: "rate_limited", retryAfterSeconds: decision.retryAfterSeconds, values: typedValues(bodyRecord(body)) };
      return { status: "sent", eventId: send(parsed.feedback) };
    },
  };
}
