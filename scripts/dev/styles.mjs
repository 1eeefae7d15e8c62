// The dev build's stylesheets, made as the production build makes them (scripts/build.mjs): one
// transform for the script builds and the stylesheet build, one stylesheet per CSS file the
// browser build imports. Run again after each client build, reusing what no saved file
// concerns: a Tailwind stylesheet is compiled again only after a save of a file it imports, or of
// a source it scans that now holds a class it did not (or of a new file), so saving a CSS Module,
// or a component's text, does not wait for Tailwind. (A class no longer used stays until the next
// compile, as with Tailwind's own dev servers: it styles nothing.)
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { Scanner } from "@tailwindcss/oxide";
import { CSS_MODULE } from "../build/css/css-modules.mjs";
import { writeModuleDeclaration } from "../build/css/module-types.mjs";
import { POSTCSS_CONFIGS } from "../build/css/postcss.mjs";
import { importedStylesheets } from "../build/css/route-styles.mjs";
import { CSS_SYNTAX_ERROR, stylesheetBuilder } from "../build/css/stylesheets.mjs";

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
  /** For a stylesheet about to be compiled again: the files whose save caused it, and the classes of Tailwind's sources among them then. */
  const recompiling = new Map();
  const caching = {
    stylesheet: async (file) => {
      const known = compiled.get(file);
      if (known) return known.result;
      const { candidates, changed } = recompiling.get(file) ?? { candidates: new Map() };
      recompiling.delete(file);
      const result = await transform.stylesheet(file, { changed });
      const dependencies = new Set(result.dependencies);
      // Tailwind's: it scans the project's sources, so a new file may bring classes too.
      const scans = result.dependencies.some((dependency) => !dependency.endsWith(".css") && !isPostcssConfig(root, dependency));
      compiled.set(file, { result, dependencies, scans, candidates });
      return result;
    },
  };
  /** Whether saving `source` may change what Tailwind generates: true unless its classes are all ones it had when last compiled. */
  const bringsClasses = (entry, source) => {
    const before = entry.candidates.get(source);
    const now = candidatesOf(source);
    return !before || !now || [...now].some((candidate) => !before.has(candidate));
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
      const concerning = files.filter((saved) => entry.dependencies.has(saved) || (entry.scans && unscanned(saved)));
      const scanned = (saved) => entry.scans && !saved.endsWith(".css") && entry.dependencies.has(saved);
      if (concerning.length === 0 || concerning.every((saved) => scanned(saved) && !bringsClasses(entry, saved))) continue;
      compiled.delete(file);
      forgotten = true;
      // Their classes as this compile sees them: a later save that adds none need not compile again.
      const candidates = new Map();
      for (const saved of concerning.filter(scanned)) candidates.set(saved, candidatesOf(saved));
      // And every file saved since its last compile, which a compile that failed has not yet seen.
      const changed = [...new Set([...(recompiling.get(file)?.changed ?? []), ...concerning])];
      recompiling.set(file, { candidates: new Map([...candidates].filter(([, set]) => set !== null)), changed });
    }
    return forgotten;
  };
  const builder = stylesheetBuilder({ root, assetsDir: path.join(outDir, "client", "assets"), transform: caching, production: false });
  const outputsDir = path.relative(root, outDir).split(path.sep).join("/");
  const inProject = (relative) => !relative.startsWith("../") && !path.isAbsolute(relative) && !/(^|\/)node_modules\//.test(relative) && !relative.startsWith(`${outputsDir}/`);

  return {
    /** Files saved (project-relative, as the watcher reports them). */
    saved(files) {
      for (const file of files) saved.add(path.resolve(root, file));
    },
    /**
     * Whether the browser's scripts are as `metafile` says despite the saves since: only stylesheets
     * were saved, and each CSS Module among them kept its class names and what it composes from.
     * Then the client half need not be built again, only its stylesheets.
     * @param {import("esbuild").Metafile} metafile the browser's last script build
     */
    async scriptsUnchanged(metafile) {
      if (saved.size === 0 || ![...saved].every((file) => file.endsWith(".css") && !isPostcssConfig(root, file))) return false;
      for (const file of saved) {
        if (!CSS_MODULE.test(file)) continue;
        const relative = path.relative(root, file).split(path.sep).join("/");
        const before = classes.get(file);
        if (!before || !metafile.inputs[relative]) return false;
        try {
          const now = await transform.moduleClasses(file);
          const composed = metafile.inputs[relative].imports.map((item) => path.resolve(root, item.path));
          if (JSON.stringify(now.classes) !== JSON.stringify(before) || JSON.stringify(now.imports) !== JSON.stringify(composed)) return false;
        } catch {
          return false; // the build says what is wrong, where
        }
      }
      return true;
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
      const result = await builder.build(files);
      const errors = result.warnings.filter((warning) => warning.id === CSS_SYNTAX_ERROR);
      if (errors.length > 0) throw Object.assign(new Error("a stylesheet has a syntax error"), { errors });
      last = { key, result, inputs: new Set(Object.keys(result.metafile.inputs).map((input) => path.resolve(root, input))) };
      return result;
    },
    /** Ends the stylesheet build's esbuild context. */
    dispose: () => builder.dispose(),
    /** The project's files the stylesheets were made from (relative), for the watcher: Tailwind's scanned sources included. */
    inputs() {
      const files = new Set(last ? [...last.inputs] : []);
      for (const entry of compiled.values()) for (const file of entry.dependencies) files.add(file);
      return [...files].map((file) => path.relative(root, file).split(path.sep).join("/")).filter(inProject);
    },
  };
}

/** The class candidates Tailwind's scanner finds in a source; null if it cannot be read. */
function candidatesOf(file) {
  let content;
  try {
    content = readFileSync(file, "utf8");
  } catch {
    return null;
  }
  const found = new Scanner({ sources: [] }).getCandidatesWithPositions({ content, extension: path.extname(file).slice(1) });
  return new Set(found.map((item) => item.candidate));
}

function isPostcssConfig(root, file) {
  return path.dirname(file) === root && POSTCSS_CONFIGS.includes(path.basename(file));
}

/** A saved file Tailwind may scan that it has not yet: a new one, not CSS nor a generated declaration (nor an editor's temporary file, gone again). */
function unscanned(file) {
  return !/\.(css|map)$/.test(file) && !file.endsWith(".d.css.ts") && existsSync(file);
}
