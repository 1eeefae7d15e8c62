/** The feedback form's fields, by the names the page, the action and the acceptance tests use. */
export const FEEDBACK_FIELDS = ["message", "name", "email", "eventId"] as const;
export type FeedbackField = (typeof FEEDBACK_FIELDS)[number];

/** Lengths in UTF-16 code units after trimming, as the browser's maxlength counts them. */
export const FEEDBACK_LIMITS = { message: 4000, name: 100, email: 200 } as const;

/** The page's path, as routes.ts names it (and defineApp's `feedbackPage`, for the platform's error pages). */
export const FEEDBACK_PATH = "/feedback";
export const FEEDBACK_SENT_PATH = "/feedback?sent=1";

/** What the visitor typed, as typed, to fill the form in again. */
export type FeedbackValues = Record<FeedbackField, string>;
export type FeedbackErrors = Partial<Record<FeedbackField, string>>;

/** What the feedback action answers with when it does not redirect. */
export interface FeedbackActionData {
  values: FeedbackValues;
  errors: FeedbackErrors;
  /** Why nothing was sent, for the whole form (rate limited, unavailable). */
  problem?: string;
}
