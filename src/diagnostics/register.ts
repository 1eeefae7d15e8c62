import type { AppConfig } from "../shared/routing/config";
import type { diagnosticsRoutes } from "./routes";

/**
 * The diagnostics' patterns (`/diagnostics/parent`), registered for their own pages only: this
 * file is compiled with them (test/types/tsconfig.json, src/diagnostics/tsconfig.json) and never
 * with the product (tsconfig.json leaves src/diagnostics out), so the product's href() and route
 * types neither offer nor accept a diagnostics page.
 */
interface DiagnosticsTable extends AppConfig {
  routes: readonly [typeof diagnosticsRoutes];
}

declare module "../shared/outpost" {
  interface Register {
    diagnostics: DiagnosticsTable;
  }
}
