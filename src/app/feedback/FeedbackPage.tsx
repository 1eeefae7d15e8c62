import { type HeadTags, Link, type LoaderData, type PageProps, useActionData } from "#outpost";
import { FeedbackForm } from "./FeedbackForm";
import type { load } from "./FeedbackPage.server";
import type { FeedbackActionData } from "./fields";

export const head = (): HeadTags => ({ title: "Feedback · Outpost" });

/** /feedback: the form, its answer with what went wrong, and the thanks once it was sent. */
export default function FeedbackPage({ data }: PageProps<LoaderData<typeof load>>) {
  const answer = useActionData<FeedbackActionData>();
  if (data.sent) {
    return (
      <section aria-labelledby="feedback-title">
        <h1 id="feedback-title">Feedback</h1>
        <p id="feedback-sent">
          Thank you: your feedback was sent. <Link href="/">Back to the home page</Link>.
        </p>
      </section>
    );
  }
  return (
    <section aria-labelledby="feedback-title">
      <h1 id="feedback-title">Send feedback</h1>
      <p>Tell us what went wrong or what could be better.</p>
      <FeedbackForm eventId={data.eventId} values={answer?.values} errors={answer?.errors} problem={answer?.problem} />
    </section>
  );
}
