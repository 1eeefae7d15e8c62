// Characters a header value cannot carry; a target holding one is a programming error, not something to mend.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
const CONTROL = /[\u0000-\u001f\u007f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// Everything outside visible ASCII (spaces included) is percent-encoded as UTF-8.
const TO_ENCODE = /[^\u0021-\u007e]+/g;

/**
 * A redirect target as a `Location` value: non-ASCII and spaces percent-encoded (what a browser
 * sends for the same URL), existing escapes kept. Throws for control characters (CR and LF
 * would split the header) and lone surrogates, which no URL can hold.
 */
export function locationHeader(target: string): string {
  if (CONTROL.test(target)) throw new TypeError(`redirect target ${JSON.stringify(target)} contains a control character`);
  if (LONE_SURROGATE.test(target)) throw new TypeError(`redirect target ${JSON.stringify(target)} contains a lone surrogate`);
  return target.replace(TO_ENCODE, (run) => encodeURIComponent(run));
}
