import type { UserFeedback } from "#outpost";
import { formValues, parseForm } from "#outpost/server";
// zod/mini, as the platform's settings use (the server sets its English messages at start).
import { email, maxLength, minLength, object, optional as absent, pipe, regex, string, toLowerCase, transform, trim, type ZodMiniType } from "zod/mini";
import { FEEDBACK_FIELDS, FEEDBACK_LIMITS, type FeedbackErrors, type FeedbackValues } from "./fields";

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

export type ParsedFeedback = { ok: true; feedback: UserFeedback } | { ok: false; errors: FeedbackErrors; values: FeedbackValues };

/** The fields as the visitor typed them, to show the form again. */
export function typedValues(body: unknown): FeedbackValues {
  return formValues(body, FEEDBACK_FIELDS);
}

/** Validates a parsed request body (form fields or JSON; anything else reads as no fields); other fields are ignored. */
export function parseFeedback(body: unknown): ParsedFeedback {
  const record = body !== null && typeof body === "object" && !Array.isArray(body) ? body : {};
  const parsed = parseForm(feedbackSchema, record, FEEDBACK_FIELDS);
  return parsed.ok ? { ok: true, feedback: parsed.data } : { ok: false, errors: parsed.errors, values: parsed.values };
}
