import type { Plugin } from "esbuild";

export function readBarrel(barrel: string): Promise<Map<string, { from: string; name: string }>>;
export function importedNames(source: string): string[] | undefined;
export function outpostImportsPlugin(options: { barrel: string }): Plugin;
