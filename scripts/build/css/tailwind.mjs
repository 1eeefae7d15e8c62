// Tailwind CSS v4, compiled by Tailwind's own engine (@tailwindcss/node) with the candidates its
// scanner (@tailwindcss/oxide) finds in the project's sources, as its Vite and PostCSS plugins do.
import path from "node:path";
import { compile, Features, optimize } from "@tailwindcss/node";
import { Scanner } from "@tailwindcss/oxide";

/** A stylesheet Tailwind must compile: it imports Tailwind or uses one of its at-rules. */
const TAILWIND_SYNTAX = /@import\s+(?:url\()?\s*["']tailwindcss(?:\/[^"']*)?["']|@(?:tailwind|apply|theme|utility|reference|variant|custom-variant|source|plugin|config)\b/;

export function usesTailwind(css) {
  return TAILWIND_SYNTAX.test(css);
}

/**
 * Compiles a Tailwind stylesheet. Sources are found as Tailwind's own tools find them: the
 * project's files (its .gitignore respected) unless the stylesheet says otherwise (`source(…)`,
 * `@source`). Returns the CSS and every file it was made from, for a watcher.
 * @returns {Promise<{ css: string, dependencies: string[] }>}
 */
export async function compileTailwind({ root, file, css }) {
  const dependencies = new Set([file]);
  const compiler = await compile(css, {
    base: path.dirname(file),
    from: file,
    onDependency: (dependency) => dependencies.add(dependency),
    shouldRewriteUrls: true,
  });
  let candidates = [];
  if (compiler.features & Features.Utilities) {
    const auto = compiler.root === "none" ? [] : compiler.root === null ? [{ base: root, pattern: "**/*", negated: false }] : [{ ...compiler.root, negated: false }];
    // Build outputs are never sources, even where a product's .gitignore does not name them.
    const outputs = ["dist", ".dev-build", ".builds"].map((folder) => ({ base: root, pattern: `${folder}/**`, negated: true }));
    const scanner = new Scanner({ sources: [...auto, ...compiler.sources, ...outputs] });
    candidates = scanner.scan();
    // Its scanner lists the stylesheets it walked past but takes no classes from them: a save of
    // one (a CSS Module) need not compile this again. Those it imports are reported above.
    for (const scanned of scanner.files) if (!scanned.endsWith(".css")) dependencies.add(scanned);
  }
  // Tailwind's own lowering (nesting, @property fallbacks) for the browsers it supports.
  const { code } = optimize(compiler.build(candidates), { file, minify: false });
  return { css: code, dependencies: [...dependencies] };
}
