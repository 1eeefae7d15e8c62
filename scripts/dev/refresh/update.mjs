// What a rebuild means for the pages open in the browser (src/shared/dev/hot-protocol.ts), read
// from the files that changed and the client and server metafiles before and after.

/**
 * The exports of a route module the browser's route table reads as it renders (RouteModule in
 * src/shared/routing/module.ts): a page swaps them in place, besides its components.
 */
export const ROUTE_EXPORTS = new Set(["default", "ErrorBoundary", "head", "errorHead", "shouldRevalidate"]);

/**
 * @param {{
 *   version: number,
 *   files: Iterable<string>,
 *   before: { client: import("esbuild").Metafile },
 *   after: { client: import("esbuild").Metafile, server: import("esbuild").Metafile },
 *   isBoundary: (file: string) => boolean,
 *   otherExports: (file: string) => string[] | null,
 *   routeIdOf: (file: string) => string | undefined,
 *   routeTables: string[],
 *   toUrl: (output: string) => string,
 * }} change `otherExports`: a module's exports other than components; `routeIdOf`: the route
 *   table's id for a route module; `routeTables`: the files of the route tables (the app's, the diagnostics')
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
    const [previous, output] = [outputOf(file, before.client), outputOf(file, after.client)];
    if (previous === output) continue; // the same chunk as before (a change esbuild printed the same)
    if (file.endsWith(".css")) {
      if (previous && output) update.styles.push({ from: toUrl(previous), to: toUrl(output) });
      else reload(`${file} ${output ? "is a new stylesheet" : "is no longer imported"}`);
    } else if (!output || !lazyChunks.has(output)) {
      reload(routeTables.includes(file) ? `${file}: the route table changed` : `${file} is part of a chunk a page loads once (the entry, or one several chunks share)`);
    } else {
      const entryPoint = after.client.outputs[output].entryPoint ?? output;
      const route = routeIdOf(entryPoint);
      const why = isBoundary(file) ? null : whyNotInPlace(file, file === entryPoint && route !== undefined, otherExports(file));
      // Imported again, the chunk re-runs its modules: Fast Refresh swaps their components, and
      // a route module's other exports replace the old ones in the page's route table.
      if (why) reload(why);
      else update.modules.push(route === undefined ? { id: entryPoint, url: toUrl(output) } : { id: entryPoint, url: toUrl(output), route });
    }
  }
  return update;
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

/**
 * The output that holds an input file: a stylesheet for CSS, otherwise a script. A stylesheet
 * the entry's CSS holds is served by that one, which the page links (a route chunk's own
 * stylesheet repeats it, and the root layout is a route chunk in development).
 */
function outputOf(file, metafile) {
  const css = file.endsWith(".css");
  const holders = Object.keys(metafile.outputs).filter(
    (output) => output.endsWith(".css") === css && !output.endsWith(".map") && file in metafile.outputs[output].inputs,
  );
  if (!css) return holders[0];
  const lazy = dynamicImportTargets(metafile);
  const entryStyles = new Set(
    Object.entries(metafile.outputs)
      .filter(([output, meta]) => meta.entryPoint && meta.cssBundle && !lazy.has(output))
      .map(([, meta]) => meta.cssBundle),
  );
  return holders.find((output) => entryStyles.has(output)) ?? holders[0];
}

/** The outputs other code imports lazily: route chunks (and the like). */
export function dynamicImportTargets(metafile) {
  return new Set(
    Object.values(metafile.outputs).flatMap((meta) => meta.imports.filter((item) => item.kind === "dynamic-import").map((item) => item.path)),
  );
}
