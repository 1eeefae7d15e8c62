import { Link } from "../../shared/navigation/Link";
import { NavigationProgress } from "../../shared/navigation/NavigationProgress";
import { Outlet } from "../../shared/navigation/Outlet";
import type { HeadTags } from "../../shared/routing/module";
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
      <NavigationProgress />
      <header className="site-header">
        <nav aria-label="Site">
          <Link href="/" className="brand">
            Outpost
          </Link>
        </nav>
      </header>
      <main id="main">
        <Outlet />
      </main>
      <footer className="site-footer">Outpost</footer>
    </>
  );
}
