export const BUILD_INPUTS: string[];
export function staleBuildReason(root: string, outDir: string, inputs?: string[]): string | undefined;
