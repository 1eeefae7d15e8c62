// esbuild options for `npm run dev`: the production options (scripts/build/options.mjs) with
// what only development needs, and what the dev script reads back from the metafiles.
import { clientOptions, serverOptions } from "../build/options.mjs";

/**
 * @param {string} outDir @param {NodeJS.ProcessEnv} env
 * @param {(modules: { id: string, relative: string }[]) => void} onRouteModules told the route modules at each build
 * @param {import("../build/options.mjs").StyleOptions} styles the session's stylesheet transform, shared with the server half
 */
export function devClientOptions(outDir, env, onRouteModules, styles) {
  // Names stay content-hashed as in production (no fixed entry.js): assets are served as
  // immutable, and a reloaded page would keep running the cached old bundle.
  const base = clientOptions({ outDir, production: false, onRouteModules, styles });
  // The browser loads Sentry only with a DSN (src/client/start.tsx), and chaining its packages'
  // own source maps costs ~200 ms per client rebuild. The dev server gets this same
  // environment, so without a DSN that chunk is never fetched.
  const sentry = Boolean(env.PUBLIC_SENTRY_DSN || env.SENTRY_DSN);
  return { ...base, plugins: sentry ? base.plugins : [...base.plugins, withoutSentry] };
}

/** @param {string} outDir @param {import("../build/options.mjs").StyleOptions} styles */
export function devServerOptions(outDir, styles) {
  // Every package external, unlike production: the standby (scripts/dev/standby.mjs) has them
  // and Node's built-ins imported before a change, so a restart compiles only the app's own
  // code. That also leaves production's plugins nothing to do (they trim bundled packages'
  // source maps and load bundled built-ins through require), only time to spend per rebuild.
  const { external: _bundled, plugins, ...base } = serverOptions({ outDir, buildId: "development", styles });
  return { ...base, plugins: plugins.filter((plugin) => plugin.name === "outpost-app-routes" || plugin.name === "outpost-style-imports"), packages: "external", metafile: true };
}

const withoutSentry = {
  name: "dev-without-sentry",
  setup(build) {
    build.onResolve({ filter: /^@sentry\// }, (args) => ({ path: args.path, namespace: "dev-without-sentry" }));
    // CommonJS, so any named import links, and the throw runs only if the chunk is loaded.
    build.onLoad({ filter: /.*/, namespace: "dev-without-sentry" }, (args) => ({
      contents: `module.exports = {};\nthrow new Error(${JSON.stringify(
        `${args.path} is left out of development builds when neither SENTRY_DSN nor PUBLIC_SENTRY_DSN is set`,
      )});`,
      loader: "js",
    }));
  },
};

/** Source files a build read (relative to the project root), without packages or virtual modules. */
export function projectInputs(metafile) {
  return Object.keys(metafile.inputs).filter((input) => !input.includes(":") && !/(^|\/)node_modules\//.test(input));
}

/**
 * The packages (and Node built-ins) the server imports while starting, for the standby to
 * import ahead. Without Sentry: external imports of the entry outputs and of the chunks they
 * import statically; chunks behind a dynamic import (Sentry's) are not followed, a dynamic
 * import of a package itself (pino-pretty) is. With Sentry, only what instrument.js loads
 * before Sentry.init anyway: a package imported ahead of that would go uninstrumented.
 */
export function startupPackages(metafile, { sentry }) {
  const outputs = metafile.outputs;
  // A dynamically imported module is an entry point of its own in the metafile: not a root.
  const lazy = new Set(
    Object.values(outputs).flatMap((meta) => meta.imports.filter((item) => item.kind === "dynamic-import").map((item) => item.path)),
  );
  const roots = Object.keys(outputs).filter((output) =>
    sentry ? output.endsWith("/instrument.js") : outputs[output].entryPoint && !lazy.has(output),
  );
  const seen = new Set(roots);
  const packages = new Set();
  for (const queue = [...roots]; queue.length > 0; ) {
    for (const item of outputs[queue.pop()].imports) {
      if (item.external) packages.add(item.path);
      else if ((item.kind === "import-statement" || sentry) && !seen.has(item.path)) {
        seen.add(item.path);
        queue.push(item.path);
      }
    }
  }
  return [...packages].sort();
}
