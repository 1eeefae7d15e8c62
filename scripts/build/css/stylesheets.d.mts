import type { Message, Metafile } from "esbuild";
import type { StyleTransform } from "./style-transform.mjs";

export const CSS_SYNTAX_ERROR: "css-syntax-error";
export function stylesheetName(root: string, file: string): string;
export function buildStylesheets(options: {
  root: string;
  assetsDir: string;
  files: string[];
  transform: StyleTransform;
  production: boolean;
  write?: boolean;
}): Promise<StylesheetsBuilt>;
export interface StylesheetsBuilt {
  outputs: Map<string, string>;
  metafile: Metafile;
  warnings: Message[];
}
export function stylesheetBuilder(options: {
  root: string;
  assetsDir: string;
  transform: StyleTransform;
  production: boolean;
  write?: boolean;
}): { build(files: string[]): Promise<StylesheetsBuilt>; dispose(): Promise<void> | undefined };
