// PostCSS, only where the product asks for it: a postcss.config.{mjs,js,cjs} at the project's root.
// Its plugins are applied to every stylesheet of every build, development included.
import { existsSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

export const POSTCSS_CONFIGS = ["postcss.config.mjs", "postcss.config.js", "postcss.config.cjs"];

/** The root's PostCSS config file, or undefined when it has none. */
export function postcssConfigFile(root) {
  return POSTCSS_CONFIGS.map((name) => path.join(root, name)).find(existsSync);
}

/**
 * Loads the root's PostCSS config, as postcss-load-config reads one: `plugins` an array of
 * plugins, or an object of package names to their options (`false` leaves one out); the export
 * may be a function of `{ env }`. Undefined without a config.
 * @returns {Promise<undefined | { file: string, run: (css: string, file: string) => Promise<string> }>}
 */
export async function loadPostcss(root, { production }) {
  const file = postcssConfigFile(root);
  if (!file) return undefined;
  const require = createRequire(path.join(root, "package.json"));
  // The query re-reads a config edited while the dev watcher runs.
  const loaded = await import(`${pathToFileURL(file).href}?mtime=${statSync(file).mtimeMs}`);
  let config = loaded.default ?? loaded;
  if (typeof config === "function") config = await config({ env: production ? "production" : "development" });
  const plugins = await pluginsOf(config?.plugins ?? [], require, file);
  const { default: postcss } = await import(pathToFileURL(require.resolve("postcss")).href).catch(() => {
    throw new Error(`${path.basename(file)} asks for PostCSS, but the postcss package is not installed: npm install --save-dev postcss`);
  });
  const processor = postcss(plugins);
  return {
    file,
    run: async (css, from) => (await processor.process(css, { from, to: from, map: false })).css,
  };
}

async function pluginsOf(plugins, require, configFile) {
  if (Array.isArray(plugins)) return plugins.filter(Boolean);
  const loaded = [];
  for (const [name, options] of Object.entries(plugins)) {
    if (options === false) continue;
    let resolved;
    try {
      resolved = require.resolve(name);
    } catch {
      throw new Error(`${path.basename(configFile)} names the PostCSS plugin ${name}, which is not installed: npm install --save-dev ${name}`);
    }
    const module = await import(pathToFileURL(resolved).href);
    const plugin = module.default ?? module;
    loaded.push(options && Object.keys(options).length > 0 ? plugin(options) : plugin);
  }
  return loaded;
}
