export const OTHER_STYLESHEET: RegExp;
export function otherStylesheetError(specifier: string): string;

export interface StyleTransform {
  /**
   * A stylesheet's CSS for the browser, with the files it was made from. `changed`: the files saved
   * since its last compile, when known, so that Tailwind reads only those of its sources.
   */
  stylesheet(file: string, options?: { changed?: string[] }): Promise<{ css: string; dependencies: string[] }>;
  /** A CSS Module's classes (composes joined in), the modules it composes from, the files it was made from. */
  moduleClasses(file: string): Promise<{ classes: Record<string, string>; imports: string[]; dependencies: string[] }>;
  reloadConfig(): void;
}

export function createStyleTransform(options: { root: string; production: boolean }): StyleTransform;
