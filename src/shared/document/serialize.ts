import { jsonText } from "../json/json-text";

/**
 * JSON for an inline <script>. `<`, `>` and `&` are escaped so no value can close the
 * script element or open a comment, and U+2028/U+2029 so older parsers that treat them as
 * line terminators inside strings keep parsing. JSON.parse reads the escapes back unchanged.
 *
 * A lone surrogate (half an emoji cut by `slice`) becomes U+FFFD, as it does in the HTML
 * around the script (UTF-8 cannot carry it): otherwise hydration would compare different text.
 * JSON.stringify writes lone surrogates, and only those, as `\udXXX` escapes; an escaped
 * backslash is matched first so a literal `\\ud800` in a string is left alone.
 */
const UNSAFE = /[<>&\u2028\u2029]|\\(?:\\|ud[89a-f][0-9a-f]{2})/g;

const ESCAPES: Record<string, string> = {
  "<": "\\u003c",
  ">": "\\u003e",
  "&": "\\u0026",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
  "\\\\": "\\\\",
};

/** Escapes JSON text for an inline <script> (the browser's copy of Document needs only this part). */
export function scriptJson(json: string): string {
  return json.replace(UNSAFE, (match) => ESCAPES[match] ?? "\\ufffd");
}

/** The value as script-safe JSON; a value JSON cannot carry fails naming it (jsonText). */
export function serializeForScript(value: unknown): string {
  return scriptJson(jsonText(value, "the page's data"));
}

// Only ever a key: inside strings every quote is escaped, and a value is never followed by a colon.
const PROTO_KEY = /([{,])"__proto__":/g;

/**
 * A value for a script that evaluates it (the page's payload). In an object literal a
 * `"__proto__":` key sets the object's prototype, where JSON.parse makes an own key: loader data
 * echoing client JSON could otherwise give the hydrated object inherited fields. Such a key is
 * written computed (`["__proto__"]:`), which is an own key; everything else is serializeForScript's.
 */
export function serializeAsScriptValue(value: unknown): string {
  const json = serializeForScript(value);
  return json.includes('"__proto__":') ? json.replace(PROTO_KEY, '$1["__proto__"]:') : json;
}
