// Which stylesheets each route links, read from the browser build's import graph: the CSS files a
// module imports, depth-first in import order, through every module it imports (a lazily loaded
// component's too, so its styles are there before it renders) but never into another route's
// module. The server links the entry's, then each matched route's, root first, each file once.

const CSS = /\.css$/;
const FOLLOWED = new Set(["import-statement", "dynamic-import", "require-call"]);

/**
 * @param {import("esbuild").Metafile} metafile the browser build's
 * @param {{ entry: string, routeModules: Map<string, string> }} graph the entry's source and each
 *   route module's source (both as the metafile names inputs) by route id
 * @returns {{ entry: string[], routes: Record<string, string[]> }} CSS sources, as the metafile names them
 */
export function routeStylesheets(metafile, { entry, routeModules }) {
  const routeSources = new Set(routeModules.values());
  // A plugin may load one source under several names (`?after-app`: app-chunk.mjs).
  const sourceOf = (input) => input.split("?")[0];
  const namesOf = (source) => Object.keys(metafile.inputs).filter((input) => sourceOf(input) === source);
  const collect = (start) => {
    const found = [];
    const seen = new Set();
    const visit = (input) => {
      for (const imported of metafile.inputs[input]?.imports ?? []) {
        if (!FOLLOWED.has(imported.kind) || imported.external || seen.has(imported.path) || routeSources.has(sourceOf(imported.path))) continue;
        seen.add(imported.path);
        visit(imported.path);
        // After what it imports: a module's composed-from stylesheets come first.
        if (CSS.test(imported.path)) found.push(imported.path);
      }
    };
    for (const name of namesOf(start)) visit(name);
    return found;
  };
  const routes = {};
  for (const [id, source] of routeModules) routes[id] = collect(source);
  return { entry: collect(entry), routes };
}

/** Every CSS source the browser build imports, for the stylesheet build. */
export function importedStylesheets(metafile) {
  return Object.keys(metafile.inputs).filter((input) => CSS.test(input) && !input.includes(":"));
}
