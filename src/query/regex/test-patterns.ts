// Test support (not a module of the serve path): fast-check arbitraries of RE2 patterns and of
// texts that exercise them, for comparing our matcher with re2js's own.
import fc from 'fast-check';

/** Characters whose case or width makes matching interesting: ß/ẞ, İ/ı, σ/ς/Σ, k/K/K (Kelvin), astral, lone surrogates. */
export const TRICKY_CHARACTERS = [
  'a', 'b', 'k', 'K', '\u212a', 's', 'S', '\u017f', 'i', 'I', '\u0130', '\u0131', 'ß', '\u1e9e', 'σ', 'ς', 'Σ', 'é', 'É', 'ö', 'Ö',
  'α', 'Ω', 'ж', '0', '7', '_', ' ', '\n', '\t', '-', '.', '+', '∑', '€', '中', '😀', '𝔸', '\ud800', '\udc00',
];

const literal = fc.constantFrom(...TRICKY_CHARACTERS.filter((c) => !/[.+\n\t]/.test(c)), '\\.', '\\+', '\\n', '\\t', 'ab', 'ung', 'straße', 'İs', 'ıs');
const cls = fc.constantFrom(
  '.', '\\d', '\\D', '\\w', '\\W', '\\s', '\\S', '\\pL', '\\PL', '\\p{Greek}', '\\p{Lu}', '\\p{Sm}', '\\pN', '[a-z]', '[^a-z]', '[A-Z0-9_]',
  '[äöüß]', '[^\\n]', '[[:alpha:]]', '[\\x{1F600}-\\x{1F64F}]', '[kK]', '[σς]', '[İı]', '\\x{130}', '\\x{fc}',
);
const assertion = fc.constantFrom('^', '$', '\\b', '\\B', '\\A', '\\z', '(?m:^)', '(?m:$)');
const quantifier = fc.constantFrom('*', '+', '?', '*?', '+?', '??', '{2}', '{0,2}', '{1,3}', '{2,}', '{0}', '{3}?');

/** Patterns of literals, classes, anchors, groups, alternation and repetition, with flags. */
export const rePattern: fc.Arbitrary<string> = fc.letrec<{ node: string; atom: string }>((tie) => ({
  atom: fc.oneof(
    { weight: 4, arbitrary: literal },
    { weight: 3, arbitrary: cls },
    { weight: 1, arbitrary: assertion },
    { weight: 2, arbitrary: tie('node').map((n) => `(${n})`) },
    { weight: 2, arbitrary: tie('node').map((n) => `(?:${n})`) },
    { weight: 1, arbitrary: tie('node').map((n) => `(?i:${n})`) },
  ),
  node: fc.oneof(
    { depthSize: 'small' },
    fc
      .array(fc.tuple(tie('atom'), fc.option(quantifier, { freq: 3 })), { minLength: 1, maxLength: 4 })
      .map((pieces) => pieces.map(([atom, q]) => atom + (q ?? '')).join('')),
    fc.array(tie('node'), { minLength: 2, maxLength: 3 }).map((bs) => bs.join('|')),
  ),
})).node.chain((p) => fc.constantFrom(p, `(?i)${p}`, `(?m)${p}`, `^${p}`, `${p}$`));

/** Texts from the characters above (so patterns match now and then), and any text at all. */
export const reText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: fc.constantFrom(...TRICKY_CHARACTERS), maxLength: 24 }),
  fc.string({ unit: 'binary', maxLength: 16 }),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.constant(''),
);
