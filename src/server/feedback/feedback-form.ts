import { email, flattenError, object, preprocess, string, type ZodType, type infer as Infer } from "zod";

import { FEEDBACK_FIELDS, FEEDBACK_LIMITS, type FeedbackErrors, type FeedbackField, type FeedbackValues } from "../../shared/feedback/fields";

/** A blank optional field is an absent one. */
const blankToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);
const optional = <T extends ZodType>(schema: T) => preprocess(blankToUndefined, schema.optional());

const feedbackSchema = object({
  message: string({ error: "Please write a message" })
    .trim()
    .min(1, "Please write a message")
    .max(FEEDBACK_LIMITS.message, `Please keep the message under ${FEEDBACK_LIMITS.message} characters`),
  name: optional(string({ error: "Expected text" }).trim().max(FEEDBACK_LIMITS.name, `At most ${FEEDBACK_LIMITS.name} characters`)),
  email: optional(
    string({ error: "Expected text" })
      .trim()
      .max(FEEDBACK_LIMITS.email, `At most ${FEEDBACK_LIMITS.email} characters`)
      .pipe(email("Please enter a valid email address")),
  ),
  // Sentry event ids: 32 hex digits (lower case, as Sentry writes them).
  eventId: optional(
    string({ error: "Expected an event id" })
      .trim()
      .regex(/^[0-9a-fA-F]{32}$/, "Not an event id")
      .transform((id) => id.toLowerCase()),
  ),
});

export type Feedback = Infer<typeof feedbackSchema>;

export type ParsedFeedback = { ok: true; feedback: Feedback } | { ok: false; errors: FeedbackErrors; values: FeedbackValues };

function typedValues(record: Record<string, unknown>): FeedbackValues {
  const text = (field: FeedbackField) => (typeof record[field] === "string" ? (record[field] as string) : "");
  return { message: text("message"), name: text("name"), email: text("email"), eventId: text("eventId") };
}

/** Validates a parsed request body (form fields or JSON); other fields are ignored. */
export function parseFeedback(body: unknown): ParsedFeedback {
  const record = body !== null && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
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
