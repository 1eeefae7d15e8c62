// CSS Modules (`*.module.css`) compiled by Lightning CSS: each class renamed `<File>_<class>_<hash>`,
// the hash taken from the file's project-relative path, so a name is the same in the server's
// build, the browser's and every later build while the file keeps its place.
import path from "node:path";
import { transform } from "lightningcss";
import { cssError } from "./css-error.mjs";

export const CSS_MODULE = /\.module\.css$/;

/** A file's class prefix: its name without `.module.css`, reduced to what a class name may hold. */
function prefixOf(file) {
  const base = path.basename(file).replace(CSS_MODULE, "").replace(/[^A-Za-z0-9_-]/g, "_");
  return /^[A-Za-z_]/.test(base) ? base : `_${base}`;
}

/**
 * Compiles one module file: its CSS with local names, and each exported class with what it
 * composes, unresolved (`dependency` entries name another file's class).
 * @returns {{ css: string, exports: Record<string, { name: string, composes: { type: string, name: string, specifier?: string }[] }> }}
 */
export function compileCssModule({ root, file, css }) {
  const relative = path.relative(root, file).split(path.sep).join("/");
  let result;
  try {
    result = transform({
      filename: relative,
      code: Buffer.from(css),
      cssModules: { pattern: `${prefixOf(file)}_[local]_[hash]`, dashedIdents: false },
      errorRecovery: false,
    });
  } catch (error) {
    throw cssError(file, css, error.message, error.loc?.line);
  }
  const exports = result.exports ?? {};
  // Lightning CSS renames a `composes` of a class the file lacks as if it existed: refused here.
  const localNames = new Set(Object.values(exports).map((entry) => entry.name));
  for (const [local, entry] of Object.entries(exports)) {
    for (const composed of entry.composes) {
      if (composed.type !== "local" || localNames.has(composed.name)) continue;
      // Every local name is `<prefix>_<class><suffix>`: the suffix read off the composing class's own.
      const prefix = `${prefixOf(file)}_`;
      const suffix = entry.name.slice(prefix.length + local.length);
      const missing = composed.name.slice(prefix.length, composed.name.length - suffix.length);
      throw cssError(file, css, `.${local} composes .${missing}, which ${path.basename(file)} does not define`, lineOf(css, missing));
    }
  }
  return { css: result.code.toString(), exports };
}

/** The line (1-based) of the first `composes` naming `name`, for an error pointing at it. */
export function lineOf(css, name) {
  const lines = css.split("\n");
  const index = lines.findIndex((line) => /composes\s*:/.test(line) && new RegExp(`(^|[\\s:,])${name}([\\s;,]|$)`).test(line));
  return index === -1 ? undefined : index + 1;
}
