// How Python reads numbers from text, for the parameters DRF and Django parse with int() and
// Decimal(): surrounding whitespace, a sign, digits with single underscores between them — and
// any Unicode decimal digit (`١٢` and fullwidth `３` are numbers to Python). One module, so the
// pagination, the ids and the filters agree.

// str.strip() / str.isspace(): Unicode whitespace, including \x1c-\x1f and \x85 but, unlike
// String.prototype.trim, not U+FEFF.
const PY_SPACE = '\\t\\n\\x0b\\x0c\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const STRIP = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, 'g');

/** Python's str.strip() (Django's form fields strip values). */
export function strip(raw: string): string {
  return raw.replace(STRIP, '');
}

// int() maps non-ASCII whitespace to a space and then skips only ASCII whitespace, so
// \x1c-\x1f, which str.strip() removes, are not whitespace to int().
const INT_SPACE = '\\t\\n\\x0b\\x0c\\r\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const INT = new RegExp(`^[${INT_SPACE}]*([+-]?\\d+(?:_\\d+)*)[${INT_SPACE}]*$`);

const NON_ASCII_DIGIT = /(?![0-9])\p{Nd}/gu;
const digitValues = new Map<string, string>();

/**
 * The value of a Unicode decimal digit. Unicode keeps each script's digits 0–9 as one run of
 * ten consecutive code points (some runs abut, e.g. the mathematical digits), so the value is
 * the distance from the run's start, modulo ten.
 */
function digitValue(digit: string): string {
  let value = digitValues.get(digit);
  if (value === undefined) {
    const code = digit.codePointAt(0)!;
    let start = code;
    while (/\p{Nd}/u.test(String.fromCodePoint(start - 1))) start--;
    value = String((code - start) % 10);
    digitValues.set(digit, value);
  }
  return value;
}

/** The text with every Unicode decimal digit replaced by its ASCII digit, as Python reads them. */
export function asciiDigits(text: string): string {
  // the common case, ASCII only, costs one scan
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7f) return text.replace(NON_ASCII_DIGIT, digitValue);
  }
  return text;
}

/** Python's int(text) in base 10, or null where int() raises ValueError. */
export function parsePythonInt(text: string): bigint | null {
  // the common case (limit, offset, an id): up to 15 ASCII digits, exact as a double
  if (text.length > 0 && text.length <= 15 && asciiDigitsOnly(text)) return BigInt(Number(text));
  const m = INT.exec(asciiDigits(text));
  return m ? BigInt(m[1].replace(/_/g, '')) : null;
}

function asciiDigitsOnly(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}
