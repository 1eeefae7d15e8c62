// An error in a stylesheet, carrying where it is, so esbuild prints the file, line and line text.

/** @returns {Error & { location?: { file: string, line: number, column: number, lineText: string } }} */
export function cssError(file, css, text, line) {
  const error = new Error(text);
  error.cssLocation = {
    file,
    line: line ?? 1,
    column: 0,
    lineText: css.split("\n")[(line ?? 1) - 1] ?? "",
  };
  return error;
}

/** esbuild's form of an error thrown while building a stylesheet: with its location when it has one. */
export function toEsbuildError(error) {
  return { text: error.message, location: error.cssLocation ?? null };
}
