// Compiled by `npx tsc -p .` (the product's program), not run: the product's typed routes are its
// own table's only. The diagnostics' patterns are registered apart (src/diagnostics/register.ts).
import { href, type LoaderContext } from "#outpost";

export const feedback = (): string => href("/feedback");

// @ts-expect-error -- '"/diagnostics/search"' is not assignable to '"unknown route pattern: /diagnostics/search (…)"'
export const diagnosticsPage = (): string => href("/diagnostics/search");

// @ts-expect-error -- Type '"/diagnostics/search"' does not satisfy the constraint '"/" | "/feedback"'
export type DiagnosticsLoader = LoaderContext<"/diagnostics/search">;
