/** One class of a compiled CSS Module, as Lightning CSS exports it: its name and what it composes, unresolved. */
export interface CssModuleExport {
  name: string;
  composes: { type: "local" | "global" | "dependency"; name: string; specifier?: string }[];
}

export const CSS_MODULE: RegExp;
export function compileCssModule(options: { root: string; file: string; css: string }): { css: string; exports: Record<string, CssModuleExport> };
export function lineOf(css: string, name: string): number | undefined;
