// The app's route table (src/app/routes.ts) names its route modules as files; the platform mounts
// its diagnostics (src/diagnostics/routes.ts, files named from src/) beside them. This plugin
// turns the two into the virtual modules the two builds import:
// - `outpost:server-routes` (server build): every route module and its server-only half
//   (`X.server.ts` beside `X.tsx`), imported statically and joined by createAppRoutes;
// - `outpost:client-routes` (client build): each route module behind a dynamic import, so each
//   page is a chunk of its own, and no server half at all.
// The client build also refuses any import of `#outpost/server`, of a `*.server.*` file or of
// src/server/: server-only code cannot reach the browser by accident, and the build error says
// which file imported it.
import { existsSync } from "node:fs";
import path from "node:path";
import * as esbuild from "esbuild";

const NAMESPACE = "outpost-routes";
const SERVER_ONLY = /\.server(\.[cm]?[jt]sx?)?$/;
const SERVER_HALF_EXTENSIONS = [".ts", ".tsx"];
/** The platform's face for `*.server.*` modules alone (package.json "imports"). */
const SERVER_FACE = "#outpost/server";

/** The platform's diagnostics: the route table fragment mounted into every app's (withDiagnostics). */
export const DIAGNOSTICS_ROUTES = "src/diagnostics/routes.ts";

/**
 * The route id of a project-relative source file (`src/app/home/HomePage.tsx` → `home/HomePage`,
 * `src/diagnostics/FormPage.tsx` → `diagnostics/FormPage`), or undefined for a file of neither folder.
 */
export function routeIdOfSource(appDir, source) {
  const appPrefix = `${appDir.replace(/\/+$/, "")}/`;
  const diagnosticsDir = path.posix.dirname(DIAGNOSTICS_ROUTES);
  let id;
  if (source.startsWith(appPrefix)) id = source.slice(appPrefix.length);
  else if (source.startsWith(`${diagnosticsDir}/`)) id = path.posix.relative(path.posix.dirname(diagnosticsDir), source);
  return id?.replace(/\.[cm]?[jt]sx?$/, "");
}

/** The lines of a module that imports the app's route table as `appConfig` and defines `config`, the diagnostics mounted. */
function mountedConfig(root, routesFile) {
  return [
    `import appConfig from ${JSON.stringify(routesFile)};`,
    `import { withDiagnostics } from ${JSON.stringify(path.join(root, DIAGNOSTICS_ROUTES))};`,
    "const config = withDiagnostics(appConfig);",
  ];
}

/** Evaluates the route table (TypeScript), the diagnostics mounted, at build time; `files`: the tables' own files. */
export async function loadAppConfig(root, appDir) {
  const file = path.join(root, appDir, "routes.ts");
  const result = await esbuild.build({
    stdin: { contents: [...mountedConfig(root, file), "export default config;"].join("\n"), resolveDir: root, loader: "js" },
    bundle: true,
    write: false,
    format: "esm",
    platform: "neutral",
    logLevel: "silent",
  });
  const code = result.outputFiles[0].text;
  const module = await import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);
  return { file, files: [file, path.join(root, DIAGNOSTICS_ROUTES)], config: module.default };
}

/**
 * Every route module the table names: its file (as the table names it), id, absolute and
 * project-relative path and server half. A file is named from its route's `folder` (inherited),
 * or else from the app's folder.
 */
export function routeModules(root, appDir, config) {
  const folders = new Map([
    [config.root, appDir],
    [config.notFound, appDir],
  ]);
  const visit = (routes, folder) => {
    for (const entry of routes) {
      const own = entry.folder ?? folder;
      if (!folders.has(entry.file)) folders.set(entry.file, own);
      if (entry.children) visit(entry.children, own);
    }
  };
  visit(config.routes, appDir);
  return [...folders].map(([file, folder]) => {
    const absolute = path.join(root, folder, file);
    const base = absolute.replace(/\.[cm]?[jt]sx?$/, "");
    // A server-only file named by the table is a resource route: no component, no browser chunk.
    const resource = SERVER_ONLY.test(file);
    const serverHalf = resource ? undefined : SERVER_HALF_EXTENSIONS.map((extension) => `${base}.server${extension}`).find(existsSync);
    return {
      file,
      resource,
      // Named from another folder than the app's: the platform's diagnostics.
      diagnostic: folder !== appDir,
      id: file.replace(/\.[cm]?[jt]sx?$/, ""),
      absolute,
      relative: path.relative(root, absolute).split(path.sep).join("/"),
      serverHalf,
    };
  });
}

function serverRoutesModule(root, routesFile, modules) {
  const lines = [
    ...mountedConfig(root, routesFile),
    `import { createAppRoutes } from ${JSON.stringify(path.join(root, "src/server/routing/app-routes.ts"))};`,
  ];
  const entries = modules.map((module, i) => {
    lines.push(`import * as m${i} from ${JSON.stringify(module.absolute)};`);
    if (module.resource) return `${JSON.stringify(module.file)}: { server: m${i} }`;
    if (module.serverHalf) lines.push(`import * as s${i} from ${JSON.stringify(module.serverHalf)};`);
    return `${JSON.stringify(module.file)}: { module: m${i}${module.serverHalf ? `, server: s${i}` : ""} }`;
  });
  // The app's own server side (middleware), when it has one.
  const appServer = SERVER_HALF_EXTENSIONS.map((extension) => path.join(path.dirname(routesFile), `app.server${extension}`)).find(existsSync);
  if (appServer) lines.push(`import * as appServer from ${JSON.stringify(appServer)};`);
  lines.push(`export default createAppRoutes(config, { ${entries.join(", ")} }${appServer ? ", appServer" : ""});`);
  return lines.join("\n");
}

/**
 * The browser's route table: `outpost:client-routes` is the app's alone, in the entry's chunk;
 * `outpost:client-routes-with-diagnostics`, a chunk of its own, mounts the diagnostics too and is
 * loaded only where the server says they are served, so visitors of a product never download them.
 */
function clientRoutesModule(root, routesFile, modules, { lazyRoot, diagnostics }) {
  // The root layout renders on every page: part of the entry rather than a chunk of its own,
  // except in development, where a chunk of its own can be imported again (Fast Refresh).
  // Resource routes have no importer at all: the browser loads them as documents.
  const [layout, ...pages] = lazyRoot ? [null, ...modules] : modules;
  const served = diagnostics ? pages : pages.filter((module) => !module.diagnostic);
  const lazy = (module) => `${JSON.stringify(module.id)}: () => import(${JSON.stringify(module.absolute)})`;
  const entries = [
    ...(layout ? [`${JSON.stringify(layout.id)}: () => Promise.resolve(rootLayout)`] : []),
    ...served.filter((module) => !module.resource).map(lazy),
  ];
  return [
    ...(layout ? [`import * as rootLayout from ${JSON.stringify(layout.absolute)};`] : []),
    // Loaded lazily, it first imports the app's module as every lazy chunk does (app-chunk.mjs),
    // or the code both tables share would be split into a chunk of its own.
    ...(diagnostics ? [`import ${JSON.stringify(path.join(root, "src/client/start.tsx"))};`, ...mountedConfig(root, routesFile)] : []),
    ...(diagnostics ? [] : [`import config from ${JSON.stringify(routesFile)};`]),
    `import { createClientRoutes } from ${JSON.stringify(path.join(root, "src/client/navigation/core/client-routes.ts"))};`,
    `export default createClientRoutes(config, { ${entries.join(", ")} });`,
  ].join("\n");
}

/** Whether an import names server-only code: the server face, a `*.server.*` file or a file under src/server/ (relative or `#src/`). */
function isServerOnly(root, { path: specifier, resolveDir }) {
  if (specifier === SERVER_FACE || specifier.startsWith(`${SERVER_FACE}/`)) return true;
  if (SERVER_ONLY.test(specifier)) return true;
  const serverDir = path.join(root, "src", "server") + path.sep;
  if (specifier.startsWith("#src/")) return path.join(root, "src", specifier.slice("#src/".length)).startsWith(serverDir);
  return !specifier.startsWith("#") && path.resolve(resolveDir, specifier).startsWith(serverDir);
}

/**
 * @param {{ root: string, appDir: string, target: "server" | "client", lazyRoot?: boolean,
 *   onModules?: (modules: { id: string, relative: string }[]) => void }} options
 *   `lazyRoot`: the root layout as a chunk of its own (development); `onModules`: told the route
 *   modules each time the table is read
 */
export function appRoutesPlugin({ root, appDir, target, lazyRoot = false, onModules }) {
  return {
    name: "outpost-app-routes",
    setup(build) {
      build.onResolve({ filter: /^outpost:(server-routes|client-routes|client-routes-with-diagnostics)$/ }, (args) => {
        if (!args.path.startsWith(`outpost:${target}-routes`)) {
          return { errors: [{ text: `${args.path} is not available in the ${target} build` }] };
        }
        return { path: args.path, namespace: NAMESPACE };
      });
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, async (args) => {
        const { file, files, config } = await loadAppConfig(root, appDir);
        const modules = routeModules(root, appDir, config);
        // Every module of both tables, whichever of them is loading.
        onModules?.(modules);
        const diagnostics = args.path.endsWith("-with-diagnostics");
        const contents =
          target === "server" ? serverRoutesModule(root, file, modules) : clientRoutesModule(root, file, modules, { lazyRoot, diagnostics });
        return { contents, loader: "js", resolveDir: root, watchFiles: files };
      });
      if (target !== "client") return;
      // Only specifiers that name "server" can reach server-only code from outside it (the face,
      // a *.server.* file, src/server/ by a relative or #src/ path): esbuild runs the filter
      // itself, where a broader one made each rebuild a round trip to this process per import
      // (354 a rebuild on the fixture app: the client rebuild took a median ~105 ms with them, ~78 without).
      build.onResolve({ filter: /server/ }, (args) => {
        if (!/^[./#]/.test(args.path) || !isServerOnly(root, args)) return undefined;
        const importer = path.relative(root, args.importer);
        return {
          errors: [
            {
              text: `${importer} imports ${args.path}, which is server-only (#outpost/server, a *.server.* file or src/server/): it cannot be part of the browser bundle. Call its functions from the route's .server.ts half (loader, action, middleware), and use \`import type\` for its types.`,
            },
          ],
        };
      });
    },
  };
}
