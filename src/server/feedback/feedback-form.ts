// zod/mini, as in config/env.server.ts (which also sets its English messages).
import { email, flattenError, maxLength, minLength, object, optional as absent, pipe, regex, string, toLowerCase, transform, trim, type infer as Infer, type ZodMiniType } from "zod/mini";

import { FEEDBACK_FIELDS, FEEDBACK_LIMITS, type FeedbackErrors, type FeedbackField, type FeedbackValues } from "../../shared/feedback/fields";

/** A blank optional field is an absent one. */
const blankToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);
const optional = <T extends ZodMiniType>(schema: T) => pipe(transform(blankToUndefined), absent(schema));

const feedbackSchema = object({
  message: string({ error: "Please write a message" }).check(
    trim(),
    minLength(1, "Please write a message"),
    maxLength(FEEDBACK_LIMITS.message, `Please keep the message under ${FEEDBACK_LIMITS.message} characters`),
  ),
  name: optional(string({ error: "Expected text" }).check(trim(), maxLength(FEEDBACK_LIMITS.name, `At most ${FEEDBACK_LIMITS.name} characters`))),
  email: optional(
    pipe(
      string({ error: "Expected text" }).check(trim(), maxLength(FEEDBACK_LIMITS.email, `At most ${FEEDBACK_LIMITS.email} characters`)),
      email("Please enter a valid email address"),
    ),
  ),
  // Sentry event ids: 32 hex digits (lower case, as Sentry writes them).
  eventId: optional(string({ error: "Expected an event id" }).check(trim(), regex(/^[0-9a-fA-F]{32}$/, "Not an event id"), toLowerCase())),
});

export type Feedback = Infer<typeof feedbackSchema>;

export type ParsedFeedback = { ok: true; feedback: Feedback } | { ok: false; errors: FeedbackErrors; values: FeedbackValues };

/** The fields as the visitor typed them, to show the form again. */
export function typedValues(record: Record<string, unknown>): FeedbackValues {
  const text = (field: FeedbackField) => (typeof record[field] === "string" ? (record[field] as string) : "");
  return { message: text("message"), name: text("name"), email: text("email"), eventId: text("eventId") };
}

/** Validates a parsed request body (form fields or JSON); other fields are ignored. */
export const bodyRecord = (body: unknown): Record<string, unknown> =>
  body !== null && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {};

export function parseFeedback(body: unknown): ParsedFeedback {
  const record = bodyRecord(body);
  const result = feedbackSchema.safeParse(record);
  if (result.success) return { ok: true, feedback: result.data };
  const fieldErrors = flattenError(result.error).fieldErrors as Partial<Record<FeedbackField, string[]>>;
  const errors: FeedbackErrors = {};
  for (const field of FEEDBACK_FIELDS) {
    const first = fieldErrors[field]?.[0];
    if (first) errors[field] = first;
  }
  return { ok: false, errors, values: typedValues(record) };
}
