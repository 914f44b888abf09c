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

let fixups: Map<string, string> | null = null;
let fixupPattern: RegExp | null = null;

function init(): void {
  const map = new Map<string, string>();
  // Derived from the running engine's Unicode tables, so it stays consistent with toLowerCase().
  // No code point outside the BMP needs a fix-up (checked for Unicode 15).
  for (let c = 0; c < 0x10000; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    const s = String.fromCharCode(c);
    if (s.toLowerCase() !== s) continue;
    const upper = s.toUpperCase();
    if (upper.length !== 1) continue; // ß, ŉ, ﬀ…: no single upper-case partner, stay as they are
    const lower = upper.toLowerCase();
    if (lower !== s) map.set(s, lower);
  }
  fixups = map;
  const cls = [...map.keys()].map((ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  fixupPattern = new RegExp(`[${cls}]`, 'g');
}

/** Folds case the way the case-insensitive lookups compare (see above). */
export function fold(text: string): string {
  if (fixupPattern === null) init();
  const lower = text.toLowerCase();
  fixupPattern!.lastIndex = 0;
  if (!fixupPattern!.test(lower)) return lower;
  fixupPattern!.lastIndex = 0;
  return lower.replace(fixupPattern!, (ch) => fixups!.get(ch)!);
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
