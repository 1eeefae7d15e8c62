// What a rebuild means for the pages open in the browser (src/shared/dev/hot-protocol.ts), read
// from the files that changed, the client and server metafiles and the stylesheets before and after.
import { CSS_MODULE } from "../../build/css/css-modules.mjs";

/**
 * The exports of a route module the browser's route table reads as it renders (RouteModule in
 * src/shared/routing/module.ts): a page swaps them in place, besides its components.
 */
export const ROUTE_EXPORTS = new Set(["default", "ErrorBoundary", "head", "errorHead", "shouldRevalidate"]);

/**
 * @param {{
 *   version: number,
 *   files: Iterable<string>,
 *   before: { client: import("esbuild").Metafile, styles?: Map<string, string> },
 *   after: { client: import("esbuild").Metafile, server: import("esbuild").Metafile, styles?: Map<string, string> },
 *   isBoundary: (file: string) => boolean,
 *   otherExports: (file: string) => string[] | null,
 *   routeIdOf: (file: string) => string | undefined,
 *   routeTables: string[],
 *   toUrl: (output: string) => string,
 * }} change `otherExports`: a module's exports other than components; `routeIdOf`: the route
 *   table's id for a route module; `routeTables`: the files of the route tables (the app's, the diagnostics');
 *   `styles`: each CSS file's stylesheet (scripts/build/css/stylesheets.mjs)
 */
export function describeUpdate({ version, files, before, after, isBoundary, otherExports, routeIdOf, routeTables, toUrl }) {
  const update = { version, modules: [], styles: [], reload: false, revalidate: false, reasons: [] };
  const reload = (reason) => {
    update.reload = true;
    update.reasons.push(reason);
  };
  const lazyChunks = dynamicImportTargets(after.client);
  for (const file of files) {
    if (!(file in after.client.inputs)) {
      // Server-only code (a loader): the new server has it; the page re-fetches its data.
      if (file in after.server.inputs) update.revalidate = true;
      continue; // or part of neither build: a file nothing imports
    }
    // A stylesheet's script is its CSS Module's class names (or nothing): it changes with them.
    const [previous, output] = [outputOf(file, before.client), outputOf(file, after.client)];
    if (previous === output) continue; // the same chunk as before (a change esbuild printed the same)
    if (!output || !lazyChunks.has(output)) {
      reload(routeTables.includes(file) ? `${file}: the route table changed` : `${file} is part of a chunk a page loads once (the entry, or one several chunks share)`);
    } else {
      const entryPoint = after.client.outputs[output].entryPoint ?? output;
      const route = routeIdOf(entryPoint);
      // A CSS Module's class names are read by its importers as they render, which the chunk runs again.
      const why = isBoundary(file) || CSS_MODULE.test(file) ? null : whyNotInPlace(file, file === entryPoint && route !== undefined, otherExports(file));
      // Imported again, the chunk re-runs its modules: Fast Refresh swaps their components, and
      // a route module's other exports replace the old ones in the page's route table.
      if (why) reload(why);
      else update.modules.push(route === undefined ? { id: entryPoint, url: toUrl(output) } : { id: entryPoint, url: toUrl(output), route });
    }
  }
  describeStyles(update, before.styles ?? new Map(), after.styles ?? new Map(), toUrl);
  return update;
}

/**
 * Stylesheets whose file changed (their CSS, what they import, or for Tailwind the sources it
 * scans) are swapped in place; one added or dropped changes which a page links, which the page
 * learns by re-fetching its state from the new server (its links follow, loaded before they show).
 */
function describeStyles(update, before, after, toUrl) {
  for (const [file, output] of after) {
    const previous = before.get(file);
    if (previous === undefined) update.revalidate = true;
    else if (previous !== output) update.styles.push({ from: toUrl(previous), to: toUrl(output) });
  }
  for (const file of before.keys()) if (!after.has(file)) update.revalidate = true;
}

/** Why a changed module that is not a refresh boundary cannot be swapped in place; null if it can. */
function whyNotInPlace(file, isRouteModule, others) {
  if (others === null || (others.length === 0 && !isRouteModule)) return `${file} exports no component that Fast Refresh could swap`;
  const blockers = isRouteModule ? others.filter((name) => !ROUTE_EXPORTS.has(name)) : others;
  if (blockers.length === 0) return null;
  const swapped = isRouteModule ? "components and a route's head, errorHead, ErrorBoundary and shouldRevalidate" : "components";
  return `${file} exports ${blockers.map((name) => `\`${name}\``).join(", ")}, which other modules may hold on to (only ${swapped} are swapped in place)`;
}

/** The client part, which a page can apply before the server restarts (see hot-client.ts). */
export function hasClientPart(update) {
  return !update.reload && (update.modules.length > 0 || update.styles.length > 0);
}

/** The script that holds an input file. */
function outputOf(file, metafile) {
  return Object.keys(metafile.outputs).find((output) => output.endsWith(".js") && file in metafile.outputs[output].inputs);
}

/** The outputs other code imports lazily: route chunks (and the like). */
export function dynamicImportTargets(metafile) {
  return new Set(
    Object.values(metafile.outputs).flatMap((meta) => meta.imports.filter((item) => item.kind === "dynamic-import").map((item) => item.path)),
  );
}
