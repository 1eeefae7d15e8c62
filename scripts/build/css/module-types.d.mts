export function declarationFile(file: string): string;
export function moduleDeclaration(file: string, classes: Record<string, string>): string;
export function writeModuleDeclaration(file: string, classes: Record<string, string>): void;
export function findCssModules(dirs: string[]): string[];
