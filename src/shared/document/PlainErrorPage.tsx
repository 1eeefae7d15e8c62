import type { RouteError } from "../routing/module";
import { feedbackHref, useFeedbackPage } from "./feedback-page";

/** The platform's last resort, when no route's error component can show an error. */
export function PlainErrorPage({ error }: { error?: RouteError }) {
  const feedback = useFeedbackPage();
  return (
    <main id="main">
      <section aria-labelledby="error-title" data-status={error?.status}>
        <h1 id="error-title">{error?.status ? "The page could not be shown" : "Something went wrong"}</h1>
        <p>
          The page could not be shown. Please try again later, or <a href="/">go to the home page</a>.
        </p>
        {error?.message ? <pre className="error-details">{error.stack ?? error.message}</pre> : null}
        {error?.eventId ? <p className="muted">{`Reference: ${error.eventId}`}</p> : null}
        {feedback ? (
          <p>
            <a href={feedbackHref(feedback, error?.eventId)}>Tell us what happened</a>
          </p>
        ) : null}
      </section>
    </main>
  );
}
