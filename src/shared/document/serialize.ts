/**
 * JSON for an inline <script>. `<`, `>` and `&` are escaped so no value can close the
 * script element or open a comment, and U+2028/U+2029 so older parsers that treat them as
 * line terminators inside strings keep parsing. JSON.parse reads the escapes back unchanged.
 */
const UNSAFE = /[<>&\u2028\u2029]/g;

const ESCAPES: Record<string, string> = {
  "<": "\\u003c",
  ">": "\\u003e",
  "&": "\\u0026",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

export function serializeForScript(value: unknown): string {
  return JSON.stringify(value).replace(UNSAFE, (char) => ESCAPES[char] as string);
}
