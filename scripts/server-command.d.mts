export const SERVER_NODE_FLAGS: readonly string[];
export function serverArgs(buildDir?: string, moreFlags?: readonly string[]): string[];
