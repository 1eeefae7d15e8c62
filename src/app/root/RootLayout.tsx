import { type HeadTags, href, Link, NavigationProgress, Outlet } from "#outpost";
import "../styles.css";

export { ErrorPage as ErrorBoundary } from "./ErrorPage";

export const head = (): HeadTags => ({
  title: "Outpost",
  description: "A server-rendered React application on Koa.",
});

export const errorHead: HeadTags = { title: "Something went wrong · Outpost" };

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
