/** The deepest nesting of arrays and objects Redis' JSON check (cjson) reads; a deeper value would get its whole session dropped as unreadable. */
export const MAX_VALUE_NESTING = 1000;

/** Whether a JSON text nests arrays and objects deeper than MAX_VALUE_NESTING (brackets inside strings not counted). */
export function nestsTooDeep(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 92) i++;
      else if (code === 34) inString = false;
    } else if (code === 34) inString = true;
    else if (code === 91 || code === 123) {
      if (++depth > MAX_VALUE_NESTING) return true;
    } else if (code === 93 || code === 125) depth--;
  }
  return false;
}

