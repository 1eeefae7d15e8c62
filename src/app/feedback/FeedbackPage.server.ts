import { type ActionContext, actionData, FEEDBACK_SENT_PATH, type FeedbackActionData, type LoaderContext, redirect } from "#outpost";

const EVENT_ID = /^[0-9a-f]{32}$/;

export function load({ url }: LoaderContext<"/feedback">) {
  const eventId = url.searchParams.get("eventId")?.toLowerCase() ?? "";
  return { sent: url.searchParams.get("sent") === "1", eventId: EVENT_ID.test(eventId) ? eventId : "" };
}

/** Sends the feedback, then post/redirect/get to the thanks; otherwise the form again, as typed. */
export async function action({ body, clientIp, services }: ActionContext<"/feedback">) {
  const submission = await services.feedback.submit(body, clientIp);
  switch (submission.status) {
    case "sent":
      return redirect(FEEDBACK_SENT_PATH, 303);
    case "invalid":
      return actionData<FeedbackActionData>({ values: submission.values, errors: submission.errors }, { status: 422 });
    case "rate_limited":
      return actionData<FeedbackActionData>(
        { values: submission.values, errors: {}, problem: "Too many messages from here: please try again in a minute." },
        { status: 429, headers: { "Retry-After": String(submission.retryAfterSeconds) } },
      );
    case "unavailable":
      return actionData<FeedbackActionData>({ values: submission.values, errors: {}, problem: "Feedback is unavailable on this server." }, { status: 503 });
  }
}
