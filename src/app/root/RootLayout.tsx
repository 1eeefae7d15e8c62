import { type ErrorBoundaryProps, type HeadTags, href, Link, NavigationProgress, Outlet } from "#outpost";
import "../styles.css";
import { errorTitle } from "./error-title";

export { ErrorPage as ErrorBoundary } from "./ErrorPage";

export const head = (): HeadTags => ({
  title: "Outpost",
  description: "A server-rendered React application on Koa.",
});

/** The error page's title says what happened: "Too many requests · Outpost" for a 429. */
export const errorHead = ({ error }: ErrorBoundaryProps): HeadTags => ({ title: `${errorTitle(error)} · Outpost` });

/** Every page renders in this layout's outlet: the site header and footer. */
export default function RootLayout() {
  return (
    <>
      <header className="site-header">
        {/* Inside a landmark, like all content: assistive technology finds it in the banner. */}
        <NavigationProgress />
        <nav aria-label="Site">
          <Link href={href("/")} className="brand">
            Outpost
          </Link>
          <Link href={href("/feedback")}>Feedback</Link>
        </nav>
      </header>
      <main id="main">
        <Outlet />
      </main>
      <footer className="site-footer">Outpost</footer>
    </>
  );
}
