import { Form, useFeedbackPage } from "#outpost";
import { FEEDBACK_LIMITS, FEEDBACK_PATH, type FeedbackErrors, type FeedbackField, type FeedbackValues } from "./fields";

export interface FeedbackFormProps {
  /** The reported event this feedback is about: Sentry links the two. */
  eventId?: string;
  values?: Partial<FeedbackValues>;
  errors?: FeedbackErrors;
  problem?: string;
}

function FieldError({ field, errors }: { field: FeedbackField; errors: FeedbackErrors }) {
  const message = errors[field];
  return message ? (
    <p className="field-error" id={`feedback-${field}-error`} data-error-for={field}>
      {message}
    </p>
  ) : null;
}

/**
 * The feedback form, on /feedback and on every error page. The server validates (noValidate),
 * so the messages are the same with JavaScript and without.
 */
export function FeedbackForm({ eventId, values = {}, errors = {}, problem }: FeedbackFormProps) {
  if (!useFeedbackPage()?.available) {
    return (
      <p className="feedback-unavailable" id="feedback-unavailable">
        Feedback is unavailable on this server at the moment.
      </p>
    );
  }
  const describedBy = (field: FeedbackField) => (errors[field] ? `feedback-${field}-error` : undefined);
  const invalid = (field: FeedbackField) => (errors[field] ? true : undefined);
  return (
    <Form action={FEEDBACK_PATH} className="feedback-form" noValidate>
      {({ pending }) => (
        <>
          {problem ? (
            <p className="form-problem" role="alert">
              {problem}
            </p>
          ) : null}
          <input type="hidden" name="eventId" value={values.eventId ?? eventId ?? ""} />
          <label htmlFor="feedback-message">What happened?</label>
          <textarea
            id="feedback-message"
            name="message"
            required
            maxLength={FEEDBACK_LIMITS.message}
            defaultValue={values.message}
            aria-invalid={invalid("message")}
            aria-describedby={describedBy("message")}
          />
          <FieldError field="message" errors={errors} />
          <label htmlFor="feedback-name">Name (optional)</label>
          <input id="feedback-name" name="name" maxLength={FEEDBACK_LIMITS.name} defaultValue={values.name} aria-invalid={invalid("name")} aria-describedby={describedBy("name")} />
          <FieldError field="name" errors={errors} />
          <label htmlFor="feedback-email">Email (optional)</label>
          <input id="feedback-email" name="email" type="email" maxLength={FEEDBACK_LIMITS.email} defaultValue={values.email} aria-invalid={invalid("email")} aria-describedby={describedBy("email")} />
          <FieldError field="email" errors={errors} />
          <FieldError field="eventId" errors={errors} />
          <button type="submit">{pending ? "Sending…" : "Send feedback"}</button>
        </>
      )}
    </Form>
  );
}
