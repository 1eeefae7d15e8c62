// What a rebuild means for the pages open in the browser (src/shared/dev/hot-protocol.ts), read
// from the files that changed and the client and server metafiles before and after.

/**
 * @param {{
 *   version: number,
 *   files: Iterable<string>,
 *   before: { client: import("esbuild").Metafile },
 *   after: { client: import("esbuild").Metafile, server: import("esbuild").Metafile },
 *   isBoundary: (file: string) => boolean,
 *   toUrl: (output: string) => string,
 * }} change
 */
export function describeUpdate({ version, files, before, after, isBoundary, toUrl }) {
  const update = { version, modules: [], styles: [], reload: false, revalidate: false };
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
      else update.reload = true;
    } else if (output && lazyChunks.has(output) && isBoundary(file)) {
      // Imported again, the route's chunk re-runs its modules: Fast Refresh swaps their components.
      update.modules.push({ id: after.client.outputs[output].entryPoint ?? output, url: toUrl(output) });
    } else {
      // Exports other than components, or a module of the entry chunk (loaded once per page).
      update.reload = true;
    }
  }
  return update;
}

/** The client part, which a page can apply before the server restarts (see hot-client.ts). */
export function hasClientPart(update) {
  return !update.reload && (update.modules.length > 0 || update.styles.length > 0);
}

/** The output that holds an input file: a stylesheet for CSS, otherwise a script. */
function outputOf(file, metafile) {
  const css = file.endsWith(".css");
  return Object.keys(metafile.outputs).find(
    (output) => output.endsWith(".css") === css && !output.endsWith(".map") && file in metafile.outputs[output].inputs,
  );
}

/** The outputs other code imports lazily: route chunks (and the like). */
export function dynamicImportTargets(metafile) {
  return new Set(
    Object.values(metafile.outputs).flatMap((meta) => meta.imports.filter((item) => item.kind === "dynamic-import").map((item) => item.path)),
  );
}
