// Serialization exactly as DRF's JSONRenderer writes it: compact separators, raw UTF-8
// (ensure_ascii=False), and U+2028/U+2029 escaped because they break JavaScript parsers.
const SEPARATORS = /[\u2028\u2029]/g;

export function toJson(value: unknown): string {
  const text = JSON.stringify(value);
  return SEPARATORS.test(text) ? text.replace(SEPARATORS, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029')) : text;
}
