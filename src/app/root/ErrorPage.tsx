import { type ErrorBoundaryProps, href, Link } from "#outpost";
import { LazyFeedbackForm } from "../feedback/LazyFeedbackForm";

const TITLES: Record<number, string> = { 401: "Please sign in", 403: "Not allowed", 404: "Not found", 429: "Too many requests" };

/** What a route's `httpError(status, { reason })` may say to the visitor. */
function reasonOf(data: unknown): string | undefined {
  const reason = (data as { reason?: unknown } | null)?.reason;
  return typeof reason === "string" ? reason : undefined;
}

/** Shown inside the root layout when a page's loader or component fails (500), or a route answers a 4xx. */
export function ErrorPage({ error }: ErrorBoundaryProps) {
  if (error.status) {
    return (
      <section aria-labelledby="error-title" data-status={error.status}>
        <h1 id="error-title">{TITLES[error.status] ?? "The page could not be shown"}</h1>
        <p>{reasonOf(error.data) ?? "This page is not available to you."}</p>
        <p>
          <Link href={href("/")}>Go to the home page</Link>
        </p>
      </section>
    );
  }
  return (
    <section aria-labelledby="error-title">
      <h1 id="error-title">Something went wrong</h1>
      <p>
        The page could not be shown. Please try again later, or <Link href={href("/")}>go to the home page</Link>.
      </p>
      {error.message ? <pre className="error-details">{error.stack ?? error.message}</pre> : null}
      <h2>Tell us what happened</h2>
      <LazyFeedbackForm eventId={error.eventId} />
    </section>
  );
}
