import type { ActionContext, LoaderContext } from "#outpost";
import { actionData, rateLimit, redirect } from "#outpost/server";
import { parseFeedback, typedValues } from "./feedback-form.server";
import { FEEDBACK_SENT_PATH, type FeedbackActionData } from "./fields";

const EVENT_ID = /^[0-9a-f]{32}$/;

/**
 * Five a minute per visitor's IP, shared by the replicas when they share a Redis. Counted by the
 * action, for valid submissions only: those cost an event, and a visitor correcting a typo
 * should not be locked out.
 */
const feedbackLimit = rateLimit({ name: "feedback", points: 5, duration: 60 });

export function load({ url }: LoaderContext<"/feedback">) {
  const eventId = url.searchParams.get("eventId")?.toLowerCase() ?? "";
  return { sent: url.searchParams.get("sent") === "1", eventId: EVENT_ID.test(eventId) ? eventId : "" };
}

/** Sends the feedback, then post/redirect/get to the thanks; otherwise the form again, as typed (the visitor's text is never lost). */
export async function action(context: ActionContext<"/feedback">) {
  const parsed = parseFeedback(context.body);
  if (!parsed.ok) return actionData<FeedbackActionData>({ values: parsed.values, errors: parsed.errors }, { status: 422 });
  const refused = (status: number, problem: string, headers?: Record<string, string>) =>
    actionData<FeedbackActionData>({ values: typedValues(context.body), errors: {}, problem }, { status, headers });
  const decision = await feedbackLimit.take(context);
  if (!decision.ok) {
    return refused(429, "Too many messages from here: please try again in a minute.", { "Retry-After": String(decision.retryAfterSeconds) });
  }
  if (!context.reportFeedback(parsed.feedback)) return refused(503, "Feedback is unavailable on this server.");
  return redirect(FEEDBACK_SENT_PATH, 303);
}
