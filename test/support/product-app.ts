import path from "node:path";
import { loadAppRoutes } from "./app-routes";
import { DIST, PRODUCT_APP, ROOT } from "./paths";
import { builtAssets, startTestApp, type TestApp, type TestAppOverrides } from "./test-app";

/** The product's routes (src/app), the diagnostics mounted, as its production build serves them. */
export const productRoutes = await loadAppRoutes({ routes: [], files: {} }, PRODUCT_APP);

/** The product (src/app, its build in dist/) served as startTestApp serves the fixture app: for the product's own tests. */
export function startProductApp(envVars: Record<string, string> = {}, overrides: TestAppOverrides = {}): Promise<TestApp> {
  return startTestApp(envVars, { routes: productRoutes, assets: builtAssets(DIST), publicDir: path.join(ROOT, PRODUCT_APP, "public"), ...overrides });
}
