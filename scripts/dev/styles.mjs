// The dev build's stylesheets, made as the production build makes them (scripts/build.mjs): one
// transform for the script builds and the stylesheet build, one stylesheet per CSS file the
// browser build imports. Run again after each client build, reusing what no saved file
// concerns: a Tailwind stylesheet is compiled again only after a save of a file it scans or
// imports (or of a new file), so saving a CSS Module does not wait for Tailwind.
import path from "node:path";
import { CSS_MODULE } from "../build/css/css-modules.mjs";
import { writeModuleDeclaration } from "../build/css/module-types.mjs";
import { POSTCSS_CONFIGS } from "../build/css/postcss.mjs";
import { importedStylesheets } from "../build/css/route-styles.mjs";
import { buildStylesheets } from "../build/css/stylesheets.mjs";

/** esbuild warns of CSS it cannot parse and goes on; in development that is an error the page shows. */
const SYNTAX_ERROR = "css-syntax-error";

/**
 * @param {{ root: string, outDir: string, styles: import("../build/options.mjs").StyleOptions }} options
 *   `styles`: the transform the script builds use, and the class names they recorded
 */
export function devStylesheets({ root, outDir, styles }) {
  const { transform, classes } = styles;
  /** A file's transformed CSS while nothing it was made from is saved. */
  const compiled = new Map();
  const saved = new Set(); // absolute paths saved since the last build
  let last = null; // the last good build, and the files it was made from
  const caching = {
    stylesheet: async (file) => {
      const known = compiled.get(file);
      if (known) return known.result;
      const result = await transform.stylesheet(file);
      const dependencies = new Set(result.dependencies);
      // Tailwind's: it scans the project's sources, so a new file may bring classes too.
      const scans = result.dependencies.some((dependency) => !dependency.endsWith(".css") && !isPostcssConfig(root, dependency));
      compiled.set(file, { result, dependencies, scans });
      return result;
    },
  };
  /** Forgets each compiled file a saved one concerns; true if any. */
  const forget = (files) => {
    if (files.some((file) => isPostcssConfig(root, file))) {
      transform.reloadConfig();
      compiled.clear();
      return true;
    }
    let forgotten = false;
    for (const [file, entry] of compiled) {
      if (files.some((saved) => entry.dependencies.has(saved) || (entry.scans && scannable(saved)))) {
        compiled.delete(file);
        forgotten = true;
      }
    }
    return forgotten;
  };
  const outputsDir = path.relative(root, outDir).split(path.sep).join("/");
  const inProject = (relative) => !relative.startsWith("../") && !path.isAbsolute(relative) && !/(^|\/)node_modules\//.test(relative) && !relative.startsWith(`${outputsDir}/`);

  return {
    /** Files saved (project-relative, as the watcher reports them). */
    saved(files) {
      for (const file of files) saved.add(path.resolve(root, file));
    },
    /**
     * The stylesheets of this client build (what buildStylesheets returns); throws esbuild's
     * errors, syntax errors included. Also writes each CSS Module's declaration.
     * @param {import("esbuild").Metafile} metafile the browser's script build
     */
    async build(metafile) {
      const files = importedStylesheets(metafile).map((input) => path.resolve(root, input));
      for (const file of files) if (CSS_MODULE.test(file) && classes.has(file)) writeModuleDeclaration(file, classes.get(file));
      const changes = [...saved];
      saved.clear();
      const forgotten = forget(changes);
      const key = files.join("\n");
      if (last && last.key === key && !forgotten && !changes.some((file) => last.inputs.has(file))) return last.result;
      last = null;
      const result = await buildStylesheets({ root, assetsDir: path.join(outDir, "client", "assets"), files, transform: caching, production: false });
      const errors = result.warnings.filter((warning) => warning.id === SYNTAX_ERROR);
      if (errors.length > 0) throw Object.assign(new Error("a stylesheet has a syntax error"), { errors });
      last = { key, result, inputs: new Set(Object.keys(result.metafile.inputs).map((input) => path.resolve(root, input))) };
      return result;
    },
    /** The project's files the stylesheets were made from (relative), for the watcher: Tailwind's scanned sources included. */
    inputs() {
      const files = new Set(last ? [...last.inputs] : []);
      for (const entry of compiled.values()) for (const file of entry.dependencies) files.add(file);
      return [...files].map((file) => path.relative(root, file).split(path.sep).join("/")).filter(inProject);
    },
  };
}

function isPostcssConfig(root, file) {
  return path.dirname(file) === root && POSTCSS_CONFIGS.includes(path.basename(file));
}

/** A saved file Tailwind may scan: not CSS, nor a generated declaration. */
function scannable(file) {
  return !/\.(css|map)$/.test(file) && !file.endsWith(".d.css.ts");
}
