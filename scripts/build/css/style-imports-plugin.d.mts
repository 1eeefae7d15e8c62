import type { Plugin } from "esbuild";
import type { StyleTransform } from "./style-transform.mjs";

export function styleImportsPlugin(options: { transform: StyleTransform; classes?: Map<string, Record<string, string>> }): Plugin;
export function classNameDisagreement(
  serverClasses: Map<string, Record<string, string>>,
  clientClasses: Map<string, Record<string, string>>,
  root: string,
): string | undefined;
