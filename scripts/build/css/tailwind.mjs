// Tailwind CSS v4, compiled by Tailwind's own engine (@tailwindcss/node) with the candidates its
// scanner (@tailwindcss/oxide) finds in the project's sources, as its Vite and PostCSS plugins do.
// Like them, each stylesheet's compiler and scanner are kept between compiles: told which sources
// were saved, the next compile reads only those (~5 ms) instead of walking the project (~60 ms).
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { compile, Features, optimize } from "@tailwindcss/node";
import { Scanner } from "@tailwindcss/oxide";

/** A stylesheet Tailwind must compile: it imports Tailwind or uses one of its at-rules. */
const TAILWIND_SYNTAX = /@import\s+(?:url\()?\s*["']tailwindcss(?:\/[^"']*)?["']|@(?:tailwind|apply|theme|utility|reference|variant|custom-variant|source|plugin|config)\b/;

export function usesTailwind(css) {
  return TAILWIND_SYNTAX.test(css);
}

/**
 * Compiles Tailwind stylesheets. Sources are found as Tailwind's own tools find them: the
 * project's files (its .gitignore respected) unless the stylesheet says otherwise (`source(…)`,
 * `@source`).
 */
export function createTailwindCompiler({ root }) {
  /** Per stylesheet: its last compile, reused while its text and the files it imports are as they were. */
  const kept = new Map();

  /**
   * `changed`: the sources saved since this file's last compile, when the caller knows them
   * (the dev watcher); without it, or when one is not a source scanned before, the project is scanned.
   * @returns {Promise<{ css: string, dependencies: string[] }>} the CSS and every file it was made from, for a watcher
   */
  return async function compileTailwind({ file, css, changed }) {
    let state = kept.get(file);
    if (!changed || !state || state.css !== css || !unchanged(state.imports)) state = await start({ root, file, css });
    kept.set(file, state);
    let candidates = [];
    if (state.scanner) {
      // (Its file list only after a first scan: asking for it before walks the sources, and that scan then finds nothing.)
      const known = changed && state.sources && changed.every((source) => state.sources.has(source) || source.endsWith(".css"));
      candidates = known ? candidatesIn(state.scanner, changed) : state.scanner.scan();
      if (!known) state.sources = new Set(state.scanner.files.filter((scanned) => !scanned.endsWith(".css")));
      state.dependencies = [...state.imports.keys(), ...state.sources];
    }
    // The compiler keeps every candidate it was given: it builds anew only for ones it had not seen.
    const built = state.compiler.build(candidates);
    if (built !== state.built) state.code = optimize(built, { file, minify: false }).code; // Tailwind's own lowering (nesting, @property fallbacks)
    state.built = built;
    return { css: state.code, dependencies: [...state.dependencies] };
  };
}

async function start({ root, file, css }) {
  const imports = new Map([[file, mtimeOf(file)]]);
  const compiler = await compile(css, {
    base: path.dirname(file),
    from: file,
    onDependency: (dependency) => imports.set(dependency, mtimeOf(dependency)),
    shouldRewriteUrls: true,
  });
  let scanner = null;
  if (compiler.features & Features.Utilities) {
    const auto = compiler.root === "none" ? [] : compiler.root === null ? [{ base: root, pattern: "**/*", negated: false }] : [{ ...compiler.root, negated: false }];
    // Build outputs are never sources, even where a product's .gitignore does not name them.
    const outputs = ["dist", ".dev-build", ".builds"].map((folder) => ({ base: root, pattern: `${folder}/**`, negated: true }));
    scanner = new Scanner({ sources: [...auto, ...compiler.sources, ...outputs] });
  }
  // Its scanner lists the stylesheets it walked past but takes no classes from them: a save of
  // one (a CSS Module) need not compile this again. Those it imports are reported by onDependency.
  return { css, imports, compiler, scanner, sources: null, dependencies: [...imports.keys()], built: null, code: "" };
}

/** The candidates in saved sources, read as the scanner reads them (CSS ones hold none for it). */
function candidatesIn(scanner, files) {
  const candidates = [];
  for (const source of files) {
    if (source.endsWith(".css")) continue;
    let content;
    try {
      content = readFileSync(source, "utf8");
    } catch {
      continue; // deleted: what it held stays, as a removed class does
    }
    for (const found of scanner.getCandidatesWithPositions({ content, extension: path.extname(source).slice(1) })) candidates.push(found.candidate);
  }
  return candidates;
}

function unchanged(imports) {
  for (const [file, mtime] of imports) if (mtimeOf(file) !== mtime) return false;
  return true;
}

function mtimeOf(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return null;
  }
}
