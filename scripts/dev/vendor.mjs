// React for the dev client, built once per `npm run dev` into assets/vendor/. react-dom's
// development build is 1.1 MB of the client bundle, and re-printing it with its source map was
// ~80 of a ~90 ms client rebuild; the app's build now imports it by URL and takes ~12 ms.
// (After `npm install` changes React, restart `npm run dev`.) React Fast Refresh's runtime is
// built here too, and React DOM imports it first (see src/client/dev/refresh-runtime.ts).
import { createRequire } from "node:module";
import path from "node:path";
import * as esbuild from "esbuild";

const VENDOR = ["react", "react/jsx-runtime", "react/jsx-dev-runtime", "react-dom", "react-dom/client"];
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
export const REFRESH_RUNTIME = "src/client/dev/refresh-runtime.ts";

/**
 * Builds the vendor modules with the client's options; returns the esbuild plugin that points
 * the app's imports of them at their URLs, and the files to add to the manifest.
 * @param {{ root: string, base: import("esbuild").BuildOptions }} options
 */
export async function buildVendor({ root, base }) {
  const outdir = path.join(base.outdir, "vendor");
  const publicPath = `${base.publicPath}vendor/`;
  const result = await esbuild.build({
    ...base,
    entryPoints: [
      ...VENDOR.map((specifier) => ({ in: `vendor:${specifier}`, out: specifier.replace("/", "-") })),
      { in: REFRESH_RUNTIME, out: "refresh-runtime" },
    ],
    outdir,
    publicPath,
    plugins: [wrappers(root)],
  });
  const urls = {};
  const files = {};
  for (const [output, meta] of Object.entries(result.metafile.outputs)) {
    const file = path.resolve(root, output);
    const url = publicPath + path.relative(outdir, file).split(path.sep).join("/");
    // As manifest.json lists files: relative to the client folder that holds assets/.
    files[url] = path.relative(path.dirname(base.outdir), file);
    if (meta.entryPoint) urls[meta.entryPoint.replace(/^vendor:/, "")] = url;
  }
  return { plugin: importFromVendor(root, urls), files };
}

/**
 * One ES module per specifier re-exporting React's CommonJS exports by name; the shared
 * chunk esbuild splits out keeps it one React for all of them. The names are read from
 * React's development build in this process, which resolves to the same files as the browser.
 */
function wrappers(root) {
  const require = createRequire(path.join(root, "package.json"));
  return {
    name: "dev-vendor-wrappers",
    setup(build) {
      build.onResolve({ filter: /^vendor:/ }, (args) => ({ path: args.path.slice("vendor:".length), namespace: "vendor" }));
      build.onLoad({ filter: /.*/, namespace: "vendor" }, (args) => {
        const names = Object.keys(withNodeEnv("development", () => require(args.path))).filter(
          (name) => IDENTIFIER.test(name) && name !== "default",
        );
        const contents = [
          ...(args.path.startsWith("react-dom") ? [`import ${JSON.stringify(path.join(root, REFRESH_RUNTIME))};`] : []),
          `const m = require(${JSON.stringify(args.path)});`,
          "export default m;",
          `export const { ${names.join(", ")} } = m;`,
        ].join("\n");
        return { contents, loader: "js", resolveDir: root };
      });
    },
  };
}

function importFromVendor(root, urls) {
  const runtime = path.join(root, REFRESH_RUNTIME);
  return {
    name: "dev-import-from-vendor",
    setup(build) {
      // The app's modules (their registration calls) and the hot client share the vendor's copy.
      build.onResolve({ filter: /refresh-runtime(\.ts)?$/ }, (args) => {
        const file = path.resolve(args.resolveDir, args.path);
        if (file === runtime || `${file}.ts` === runtime) return { path: urls[REFRESH_RUNTIME], external: true };
      });
      build.onResolve({ filter: /^react(-dom)?(\/|$)/ }, (args) => {
        if (args.path in urls) return { path: urls[args.path], external: true };
        // Bundled, it would be a second React beside the vendor one: hooks would break.
        return { errors: [{ text: `${args.path} is not in scripts/dev/vendor.mjs's VENDOR list` }] };
      });
    },
  };
}

function withNodeEnv(value, load) {
  const previous = process.env.NODE_ENV;
  process.env.NODE_ENV = value;
  try {
    return load();
  } finally {
    if (previous === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = previous;
  }
}
