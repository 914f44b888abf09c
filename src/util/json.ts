// Serialization exactly as DRF's JSONRenderer writes it: compact separators, raw UTF-8
// (ensure_ascii=False), and U+2028/U+2029 escaped because they break JavaScript parsers.
const SEPARATORS = /[\u2028\u2029]/g;

/**
 * Whether JSON.stringify's output holds a character DRF escapes and JavaScript does not. Two
 * searches for one character each: V8's string search reads a long row several times faster than
 * a character-class pattern does, and every row is searched.
 */
export function needsEscaping(json: string): boolean {
  return json.includes('\u2028') || json.includes('\u2029');
}

export function toJson(value: unknown): string {
  const text = JSON.stringify(value);
  return needsEscaping(text) ? escapeSeparators(text) : text;
}

/** JSON.stringify's output with U+2028/U+2029 escaped (they can only be inside its strings). */
export function escapeSeparators(json: string): string {
  return json.replace(SEPARATORS, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029'));
}
