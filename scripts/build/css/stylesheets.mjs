// The browser's stylesheets: one per CSS file a script imports (its own @imports inlined), so each
// route links exactly the files its modules import. Fonts and images named in CSS (`url()`) are
// content-hashed files beside them, served and shared across builds like scripts.
import path from "node:path";
import * as esbuild from "esbuild";
import { toEsbuildError } from "./css-error.mjs";

/** Files a stylesheet may name with `url()`, copied under a content-hashed name. */
const MEDIA = [".woff2", ".woff", ".ttf", ".otf", ".eot", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".avif", ".ico"];

/** esbuild's id for CSS it cannot parse: only a warning to esbuild (the browser drops the rule), an error to Outpost. */
export const CSS_SYNTAX_ERROR = "css-syntax-error";

/** A stylesheet's output name: its path under src/ (or the project), flattened, at most 100 characters. */
export function stylesheetName(root, file) {
  const relative = path.relative(root, file).split(path.sep).join("/").replace(/^src\//, "").replace(/\.css$/, "");
  return relative.replace(/[^A-Za-z0-9_.-]+/g, "_").slice(-100);
}

const NOTHING = () => ({ outputs: new Map(), metafile: { inputs: {}, outputs: {} }, warnings: [] });

/**
 * Builds `files` (absolute paths, in any order) into `assetsDir`.
 * @returns {Promise<{ outputs: Map<string, string>, metafile: import("esbuild").Metafile, warnings: import("esbuild").Message[] }>}
 *   `outputs`: each file's stylesheet, as a path relative to the project root; `warnings`: esbuild's
 *   (the dev watcher shows CSS syntax errors on its overlay)
 */
export async function buildStylesheets(options) {
  if (options.files.length === 0) return NOTHING();
  return builtStylesheets(options.root, await esbuild.build(stylesheetOptions(options)));
}

/**
 * The same builds again and again (the dev loop), through one esbuild context per list of files:
 * a rebuild keeps what esbuild parsed of the stylesheets no save changed.
 * @param {Omit<Parameters<typeof buildStylesheets>[0], "files">} options
 */
export function stylesheetBuilder(options) {
  let current = null;
  return {
    /** @param {string[]} files @returns {ReturnType<typeof buildStylesheets>} */
    async build(files) {
      if (files.length === 0) return NOTHING();
      const key = files.join("\n");
      if (current?.key !== key) {
        await current?.context.dispose();
        current = { key, context: await esbuild.context(stylesheetOptions({ ...options, files })) };
      }
      return builtStylesheets(options.root, await current.context.rebuild());
    },
    dispose: () => current?.context.dispose(),
  };
}

function stylesheetOptions({ root, assetsDir, files, transform, production, write = true }) {
  return {
    absWorkingDir: root,
    entryPoints: files.map((file) => ({ in: file, out: stylesheetName(root, file) })),
    outdir: assetsDir,
    bundle: true,
    minify: production,
    sourcemap: production ? false : "linked",
    target: ["chrome111", "firefox111", "safari16.4"],
    entryNames: "styles/[name]-[hash]",
    assetNames: "media/[name]-[hash]",
    loader: Object.fromEntries(MEDIA.map((extension) => [extension, "file"])),
    metafile: true,
    write,
    logLevel: "warning",
    plugins: [
      {
        name: "outpost-stylesheets",
        setup(build) {
          // `url("/logo.svg")` names a public file (src/app/public/), served as it is: left for the browser.
          build.onResolve({ filter: /^\// }, (args) => (args.kind === "url-token" ? { path: args.path, external: true } : undefined));
          build.onLoad({ filter: /\.css$/ }, async (args) => {
            try {
              const { css, dependencies } = await transform.stylesheet(args.path);
              return { contents: css, loader: "css", resolveDir: path.dirname(args.path), watchFiles: dependencies };
            } catch (error) {
              return { errors: [toEsbuildError(error)], watchFiles: [args.path] };
            }
          });
        },
      },
    ],
  };
}

function builtStylesheets(root, result) {
  const outputs = new Map();
  for (const [output, meta] of Object.entries(result.metafile.outputs)) {
    if (meta.entryPoint && output.endsWith(".css")) outputs.set(path.resolve(root, meta.entryPoint), output);
  }
  return { outputs, metafile: result.metafile, warnings: result.warnings };
}
