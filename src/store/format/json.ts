// Serialization exactly as DRF's JSONRenderer writes it: compact separators, raw UTF-8
// (ensure_ascii=False), and U+2028/U+2029 escaped because they break JavaScript parsers.
const SEPARATOR = /[\u2028\u2029]/;
const SEPARATORS = /[\u2028\u2029]/g;

/** Whether JSON.stringify's output holds a character DRF escapes and JavaScript does not. */
export function needsEscaping(json: string): boolean {
  return SEPARATOR.test(json);
}

export function toJson(value: unknown): string {
  const text = JSON.stringify(value);
  // `test` on a non-global pattern: a global one would carry lastIndex over to the next string
  return SEPARATOR.test(text) ? escapeSeparators(text) : text;
}

/** JSON.stringify's output with U+2028/U+2029 escaped (they can only be inside its strings). */
export function escapeSeparators(json: string): string {
  return json.replace(SEPARATORS, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029'));
}
