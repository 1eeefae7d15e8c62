// What a script's `import "./x.css"` becomes in the server's and the browser's script builds: a
// CSS Module its class names (the same in both builds, from one transform), any other stylesheet
// nothing. The CSS itself is built apart, one stylesheet per file (stylesheets.mjs), and linked
// per route from the import graph (route-styles.mjs).
import { readFileSync } from "node:fs";
import { toEsbuildError } from "./css-error.mjs";
import { CSS_MODULE } from "./css-modules.mjs";
import { OTHER_STYLESHEET, otherStylesheetError } from "./style-transform.mjs";

/**
 * @param {{ transform: ReturnType<typeof import("./style-transform.mjs").createStyleTransform>,
 *   classes?: Map<string, Record<string, string>> }} options `classes`: filled with each module's
 *   class names, so the build can check the server's against the browser's
 */
export function styleImportsPlugin({ transform, classes }) {
  return {
    name: "outpost-style-imports",
    setup(build) {
      build.onResolve({ filter: OTHER_STYLESHEET }, (args) => (args.kind === "entry-point" ? undefined : { errors: [{ text: otherStylesheetError(args.path) }] }));
      build.onLoad({ filter: /\.css$/ }, async (args) => {
        if (!CSS_MODULE.test(args.path)) return { contents: "", loader: "js", watchFiles: [args.path] };
        try {
          const found = await transform.moduleClasses(args.path);
          classes?.set(args.path, found.classes);
          // Composed-from modules are imported first: their stylesheets are linked before this one's.
          const contents = [...found.imports.map((file) => `import ${JSON.stringify(file)};`), `export default ${JSON.stringify(found.classes)};`];
          return { contents: contents.join("\n"), loader: "js", watchFiles: found.dependencies };
        } catch (error) {
          return { errors: [toEsbuildError(error)], watchFiles: [args.path] };
        }
      });
    },
  };
}

/** The first module whose class names differ between two builds' maps, as an error message; undefined when all agree. */
export function classNameDisagreement(serverClasses, clientClasses, root) {
  for (const [file, server] of serverClasses) {
    const client = clientClasses.get(file);
    if (!client) continue;
    for (const name of new Set([...Object.keys(server), ...Object.keys(client)])) {
      if (server[name] !== client[name]) {
        const line = readFileSync(file, "utf8").split("\n").findIndex((text) => text.includes(`.${name}`)) + 1;
        return `${file.slice(root.length + 1)}${line > 0 ? `:${line}` : ""}: .${name} is "${server[name]}" in the server's build but "${client[name]}" in the browser's`;
      }
    }
  }
  return undefined;
}
