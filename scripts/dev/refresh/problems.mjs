// esbuild's errors as the browser overlay shows them: message, file, line and a code frame.
import { readFileSync } from "node:fs";
import path from "node:path";

/** @param {unknown} error what a failed rebuild threw @param {string} root */
export function buildProblems(error, root) {
  const messages = /** @type {import("esbuild").Message[]} */ (error?.errors ?? []);
  if (messages.length === 0) return [{ message: String(error?.stack ?? error) }];
  return messages.slice(0, 5).map(({ text, location }) => {
    if (!location) return { message: text };
    const { line, column } = location;
    // A stylesheet's error (scripts/build/css/css-error.mjs) names its file by its absolute path.
    const file = path.isAbsolute(location.file) ? path.relative(root, location.file).split(path.sep).join("/") : location.file;
    return { message: text, file, line, column: column + 1, frame: codeFrame(path.resolve(root, file), line, column) };
  });
}

/** Two lines either side of the error's, numbered, with a caret under its column. */
function codeFrame(file, line, column) {
  let lines;
  try {
    lines = readFileSync(file, "utf8").split("\n");
  } catch {
    return undefined;
  }
  const first = Math.max(1, line - 2);
  const last = Math.min(lines.length, line + 2);
  const width = String(last).length;
  const frame = [];
  for (let number = first; number <= last; number++) {
    const marker = number === line ? ">" : " ";
    frame.push(`${marker} ${String(number).padStart(width)} | ${lines[number - 1]}`);
    if (number === line) frame.push(`  ${" ".repeat(width)} | ${" ".repeat(column)}^`);
  }
  return frame.join("\n");
}
