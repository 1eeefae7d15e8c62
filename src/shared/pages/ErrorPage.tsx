export interface ErrorDetails {
  message: string;
  /** Present in development only. */
  stack?: string;
}

export function ErrorPage({ error }: { error?: ErrorDetails }) {
  return (
    <section aria-labelledby="error-title">
      <h1 id="error-title">Something went wrong</h1>
      <p>
        The page could not be shown. Please try again later, or{" "}
        <a href="/">go to the home page</a>.
      </p>
      {error ? (
        <pre className="error-details">{error.stack ?? error.message}</pre>
      ) : null}
    </section>
  );
}
