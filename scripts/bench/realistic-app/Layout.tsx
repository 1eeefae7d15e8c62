import { Link } from "../../../src/shared/navigation/Link";
import { NavigationProgress } from "../../../src/shared/navigation/NavigationProgress";
import { Outlet } from "../../../src/shared/navigation/Outlet";
import type { HeadTags } from "../../../src/shared/routing/module";
import "./styles.css";

export const head = (): HeadTags => ({ title: "Shop", description: "A realistic page for the benchmarks" });

/** A site header and footer around every page, as a real root layout has. */
export default function Layout() {
  return (
    <>
      <NavigationProgress />
      <header>
        <nav aria-label="Site">
          <Link href="/">Home</Link> <Link href="/products">Products</Link>
        </nav>
      </header>
      <main>
        <Outlet />
      </main>
      <footer>Shop</footer>
    </>
  );
}
