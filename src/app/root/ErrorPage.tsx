import { type ErrorBoundaryProps, href, Link, type SearchIssue } from "#outpost";
import { LazyFeedbackForm } from "../feedback/LazyFeedbackForm";
import { errorTitle } from "./error-title";

/** What a route's `httpError(status, { reason })` may say to the visitor. */
function reasonOf(data: unknown): string | undefined {
  const reason = (data as { reason?: unknown } | null)?.reason;
  return typeof reason === "string" ? reason : undefined;
}

/** The checks a refused query failed (`error.data.issues` of a page's `searchParams`), when that is what the data holds. */
function issuesOf(data: unknown): SearchIssue[] | undefined {
  const issues = (data as { issues?: unknown } | null)?.issues;
  if (!Array.isArray(issues) || issues.length === 0) return undefined;
  const valid = issues.every((issue: Partial<SearchIssue> | null) => Array.isArray(issue?.path) && typeof issue?.message === "string");
  return valid ? (issues as SearchIssue[]) : undefined;
}

/** Shown inside the root layout when a page's loader or component fails (500), or a route answers a 4xx. */
export function ErrorPage({ error }: ErrorBoundaryProps) {
  if (error.status) {
    const issues = issuesOf(error.data);
    return (
      <section aria-labelledby="error-title" data-status={error.status}>
        <h1 id="error-title">{errorTitle(error)}</h1>
        {issues ? (
          <>
            <p>The page could not use this address&apos;s query:</p>
            <ul id="error-issues">
              {issues.map((issue) => (
                <li key={`${issue.path.join(".")} ${issue.message}`}>
                  <code>{issue.path.join(".") || "(the query)"}</code>
                  {`: ${issue.message}`}
                </li>
              ))}
            </ul>
          </>
        ) : (
          <p>{reasonOf(error.data) ?? "This page is not available to you."}</p>
        )}
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
