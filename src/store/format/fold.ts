// Case folding for the case-insensitive lookups.
//
// The reference compares `UPPER(col)` with `UPPER(value)` character by character (PostgreSQL,
// C.UTF-8), so `ß` stays `ß` (its upper case is two letters) while umlauts fold. JavaScript's
// `toLowerCase()` gives the same classes for everything people type, and is what the issue asks
// for; it differs only for the handful of lower-case letters whose upper case is shared with another
// lower-case letter (`ς`/`σ`, `ſ`/`s`, `µ`/`μ`, `ı`/`i`, …), which `UPPER` merges and `toLowerCase`
// keeps apart. We map those 23 letters to their partner as well. That makes the fold
// *context-free* (plain `toLowerCase` turns a final `Σ` into `ς` but an inner one into `σ`), which
// the trigram index relies on: fold(a + b) === fold(a) + fold(b), so if a text contains `x`, the
// folded text contains the folded `x`.

/**
 * The lower-case letters whose upper case is a single letter that lower-cases to another one, and
 * that other one: `fixupsOf()` over the engine's Unicode tables. Written out, not derived at
 * start: the derivation walks the 65,536 code units of the BMP (~20 ms of a first `icontains`);
 * fold.test.ts holds this list to the running engine's derivation. No code point outside the BMP
 * needs a fix-up (checked for Unicode 15).
 */
export const FIXUPS: readonly (readonly [string, string])[] = [
  ['\u00b5', '\u03bc'], ['\u0131', 'i'], ['\u017f', 's'], ['\u0345', '\u03b9'], ['\u03c2', '\u03c3'], ['\u03d0', '\u03b2'],
  ['\u03d1', '\u03b8'], ['\u03d5', '\u03c6'], ['\u03d6', '\u03c0'], ['\u03f0', '\u03ba'], ['\u03f1', '\u03c1'], ['\u03f5', '\u03b5'],
  ['\u1c80', '\u0432'], ['\u1c81', '\u0434'], ['\u1c82', '\u043e'], ['\u1c83', '\u0441'], ['\u1c84', '\u0442'], ['\u1c85', '\u0442'],
  ['\u1c86', '\u044a'], ['\u1c87', '\u0463'], ['\u1c88', '\ua64b'], ['\u1e9b', '\u1e61'], ['\u1fbe', '\u03b9'],
];

/** The fix-ups as the running engine's tables give them (what FIXUPS must equal). */
export function fixupsOf(): [string, string][] {
  const out: [string, string][] = [];
  for (let c = 0; c < 0x10000; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    const s = String.fromCharCode(c);
    if (s.toLowerCase() !== s) continue;
    const upper = s.toUpperCase();
    if (upper.length !== 1) continue; // ß, ŉ, ﬀ…: no single upper-case partner, stay as they are
    const lower = upper.toLowerCase();
    if (lower !== s) out.push([s, lower]);
  }
  return out;
}

const fixups = new Map<string, string>(FIXUPS);
const fixupPattern = new RegExp(`[${FIXUPS.map(([ch]) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}]`, 'g');

/** Folds case the way the case-insensitive lookups compare (see above). */
export function fold(text: string): string {
  const lower = text.toLowerCase();
  fixupPattern.lastIndex = 0;
  if (!fixupPattern.test(lower)) return lower;
  fixupPattern.lastIndex = 0;
  return lower.replace(fixupPattern, (ch) => fixups.get(ch)!);
}

/**
 * Whether a literal character of a case-insensitive RE2 pattern can be represented by its fold
 * when looking up the trigram index: every character RE2 lets it match (its simple-case-folding
 * orbit) must fold to the same string. That holds for all BMP characters except the few whose
 * upper case is several characters and that RE2 still pairs with another code point (`ΐ`/`ΐ`,
 * `ﬅ`/`ﬆ`); `ß` is the one such letter whose orbit (`ß`, `ẞ`) does fold together. Checked
 * exhaustively against re2js for the whole BMP.
 */
export function foldSafeInCaseInsensitiveRegex(ch: string): boolean {
  if (ch.length !== 1) return false;
  if (ch === 'ß') return true;
  const c = ch.charCodeAt(0);
  if (c >= 0xd800 && c <= 0xdfff) return false;
  return ch.toUpperCase().length === 1;
}
