import { readFileSync, statSync } from "node:fs";
import path from "node:path";

/** Written by scripts/build from esbuild's metafile; see there for how it is made. */
export interface BuildManifest {
  buildId: string;
  entry: { script: string; styles: string[]; modulePreloads: string[] };
  /**
   * Each route module by route id: its chunk's script and the chunks it imports (none for the root
   * layout, part of the entry in production), and the stylesheets its modules import, in order.
   */
  routes: Record<string, { script?: string; imports: string[]; styles: string[] }>;
  /** Public URL path → file path relative to the client output folder. */
  files: Record<string, string>;
}

export interface StaticFile {
  absolutePath: string;
  size: number;
}

export interface LoadedAssets {
  manifest: BuildManifest;
  /** Every servable file by URL path, with its size read once at start. */
  files: Map<string, StaticFile>;
}

/** Reads the manifest once at start; a missing build is a start-up error, not a 404 later. */
export function loadAssets(distDir: string): LoadedAssets {
  const manifestPath = path.join(distDir, "manifest.json");
  let manifest: BuildManifest;
  try {
    manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as BuildManifest;
  } catch (error) {
    throw new Error(
      `Cannot read the build manifest at ${manifestPath} (run \`npm run build\`): ${(error as Error).message}`,
    );
  }
  const clientDir = path.join(distDir, "client");
  const files = new Map<string, StaticFile>();
  for (const [urlPath, relative] of Object.entries(manifest.files)) {
    const absolutePath = path.join(clientDir, relative);
    files.set(urlPath, { absolutePath, size: statSync(absolutePath).size });
  }
  return { manifest, files };
}
