import { LazyFeedbackForm } from "../../shared/feedback/LazyFeedbackForm";
import { Link } from "../../shared/navigation/Link";
import type { ErrorBoundaryProps } from "../../shared/routing/module";

/** Shown inside the root layout when a page's loader or component fails (status 500). */
export function ErrorPage({ error }: ErrorBoundaryProps) {
  return (
    <section aria-labelledby="error-title">
      <h1 id="error-title">Something went wrong</h1>
      <p>
        The page could not be shown. Please try again later, or <Link href="/">go to the home page</Link>.
      </p>
      {error.message ? <pre className="error-details">{error.stack ?? error.message}</pre> : null}
      <h2>Tell us what happened</h2>
      <LazyFeedbackForm eventId={error.eventId} />
    </section>
  );
}
