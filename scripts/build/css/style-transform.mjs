// The one transform every stylesheet goes through, in the production build, the dev watcher and the
// tests' builds alike: Tailwind (where the file uses it), then the product's PostCSS plugins (where
// it has a config), then CSS Modules (for `*.module.css`). Both the server's build and the
// browser's ask it for a module's class names, so the two can never disagree.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { cssError } from "./css-error.mjs";
import { CSS_MODULE, compileCssModule, lineOf } from "./css-modules.mjs";
import { loadPostcss } from "./postcss.mjs";
import { createTailwindCompiler, usesTailwind } from "./tailwind.mjs";

/** Stylesheet languages that need a compiler Outpost does not ship. */
export const OTHER_STYLESHEET = /\.(s[ac]ss|less|styl(?:us)?)$/;

export function otherStylesheetError(specifier) {
  const language = { scss: "Sass", sass: "Sass", less: "Less", styl: "Stylus", stylus: "Stylus" }[specifier.split(".").pop()];
  return `${specifier} is ${language}, which Outpost does not compile: write it as CSS (nesting, custom properties, CSS Modules, Tailwind and PostCSS plugins are built in; docs/guides/styling.md)`;
}

/**
 * @param {{ root: string, production: boolean }} options
 */
export function createStyleTransform({ root, production }) {
  let postcss;
  const compileTailwind = createTailwindCompiler({ root });
  /** Module files' compiled results by path, kept while their source is unchanged (composes reads them again). */
  const modules = new Map();

  /** @returns {Promise<{ css: string, exports?: Record<string, any>, dependencies: string[] }>} */
  const compileFile = async (file, changed) => {
    const source = await readFile(file, "utf8");
    const cached = modules.get(file);
    if (cached && cached.source === source) return cached.result;
    let css = source;
    let dependencies = [file];
    const tailwind = usesTailwind(source);
    if (tailwind) ({ css, dependencies } = await compileTailwind({ file, css, changed }).catch((error) => {
      // Tailwind names the place in its message (`<file>:<line>:<column>: …`), not in a field.
      const line = error.loc?.line ?? Number(error.message.match(/\.css:(\d+):\d+:/)?.[1] ?? Number.NaN);
      throw cssError(file, source, `Tailwind: ${error.message}`, Number.isNaN(line) ? undefined : line);
    }));
    postcss ??= loadPostcss(root, { production });
    const plugins = await postcss;
    if (plugins) {
      css = await plugins.run(css, file).catch((error) => {
        throw cssError(file, source, `PostCSS (${path.basename(plugins.file)}): ${error.reason ?? error.message}`, error.line);
      });
      dependencies.push(plugins.file);
    }
    if (!CSS_MODULE.test(file)) return { css, dependencies };
    const compiled = compileCssModule({ root, file, css });
    const result = { css: compiled.css, exports: compiled.exports, dependencies };
    // A Tailwind module's output follows the sources it scans: never reused.
    if (!tailwind) modules.set(file, { source, result });
    return result;
  };

  /**
   * A module's classes as the page uses them (`composes` joined in), and the module files it
   * composes from, which must be linked before it.
   * @returns {Promise<{ classes: Record<string, string>, imports: string[], dependencies: string[] }>}
   */
  const moduleClasses = async (file, composing = []) => {
    const { exports, dependencies } = await compileFile(file);
    const source = await readFile(file, "utf8");
    const byName = new Map(Object.entries(exports).map(([local, entry]) => [entry.name, local]));
    const classes = {};
    const imports = [];
    /** One class with all it composes, transitively (`composes` of a composed class counts too). */
    const resolve = async (local, within = []) => {
      if (classes[local] !== undefined) return classes[local];
      if (within.includes(local)) throw cssError(file, source, `.${local} composes itself (through ${within.join(", ")})`, lineOf(source, local));
      const entry = exports[local];
      const names = [entry.name];
      for (const composed of entry.composes) {
        if (composed.type === "global") names.push(composed.name);
        else if (composed.type === "local") names.push(await resolve(byName.get(composed.name), [...within, local]));
        else names.push(await fromOtherFile(local, composed));
      }
      classes[local] = [...new Set(names.join(" ").split(" "))].join(" ");
      return classes[local];
    };
    const fromOtherFile = async (local, composed) => {
      const other = path.resolve(path.dirname(file), composed.specifier);
      if (!CSS_MODULE.test(other)) {
        throw cssError(file, source, `.${local} composes from ${composed.specifier}, which is not a CSS Module (*.module.css)`, lineOf(source, composed.name));
      }
      // Refused where the cycle closes, so the error points at that `composes` line.
      if (other === file || composing.includes(other)) {
        const chain = [...composing, file, other].map((item) => path.relative(root, item)).join(" composes from ");
        throw cssError(file, source, `${chain}: a cycle`, lineOf(source, composed.name));
      }
      let otherClasses;
      try {
        otherClasses = (await moduleClasses(other, [...composing, file])).classes;
      } catch (error) {
        if (error.code !== "ENOENT") throw error;
        throw cssError(file, source, `.${local} composes from ${composed.specifier}, which does not exist`, lineOf(source, composed.name));
      }
      const value = otherClasses[composed.name];
      if (value === undefined) {
        throw cssError(file, source, `.${local} composes .${composed.name} from ${composed.specifier}, which does not define it`, lineOf(source, composed.name));
      }
      if (!imports.includes(other)) imports.push(other);
      return value;
    };
    // Sorted: Lightning CSS lists exports in no fixed order, and the class map (so the chunk's hash)
    // and the composed-from files' order must not change while the file does not.
    for (const local of Object.keys(exports).sort()) await resolve(local);
    return { classes, imports, dependencies };
  };

  return {
    /** A stylesheet's CSS for the browser, with the files it was made from; `changed`: see createTailwindCompiler. */
    stylesheet: async (file, { changed } = {}) => {
      const { css, dependencies } = await compileFile(file, changed);
      return { css, dependencies };
    },
    moduleClasses,
    /** Forgets the PostCSS config, and the modules compiled with it (the dev watcher calls it when the config changes). */
    reloadConfig: () => {
      postcss = undefined;
      modules.clear();
    },
  };
}
