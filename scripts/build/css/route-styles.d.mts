import type { Metafile } from "esbuild";

export function routeStylesheets(
  metafile: Metafile,
  graph: { entry: string; routeModules: Map<string, string> },
): { entry: string[]; routes: Record<string, string[]> };
export function importedStylesheets(metafile: Metafile): string[];
