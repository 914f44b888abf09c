// Test helper: a seeded PRNG and random generators for the property-style tests.
import { mulberry32 } from '../../util/mulberry32.ts';

export function prng(seed: number) {
  const next = mulberry32(seed);
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(a: readonly T[]): T => a[int(a.length)];
  return { next, int, pick, chance: (p: number) => next() < p };
}

export type Random = ReturnType<typeof prng>;

/** Characters that stress case folding, the alphabet mapping and LIKE-style escaping. */
export const TRICKY = [...'aAbBcCsSkKiIoOöÖßẞσςΣıİſKΐΐ%_. -:0123'];

export function randomText(r: Random, maxLength = 12, alphabet: readonly string[] = TRICKY): string {
  return Array.from({ length: r.int(maxLength + 1) }, () => r.pick(alphabet)).join('');
}

/** A substring of `s`, case of some letters flipped. */
export function mangle(r: Random, s: string): string {
  const from = r.int(s.length + 1);
  const sub = s.slice(from, from + 1 + r.int(8));
  return [...sub].map((c) => (r.chance(0.3) ? (r.chance(0.5) ? c.toUpperCase() : c.toLowerCase()) : c)).join('');
}

const REGEX_ATOMS = ['a', 'b', 'ß', 'ẞ', 'S', 's', 'k', 'K', 'σ', 'Σ', 'ς', 'ΐ', 'ö', 'Ö', '.', '\\.', '%', '_', ' ', '[aß]', '[^a]', '\\d', '\\w', '\\s', '\\pL', '\\x{df}', '\\b', '\\Qa.\\E', ':'];

/** A random RE2 pattern (it may be invalid; the caller compiles it). */
export function randomRegex(r: Random, depth = 0): string {
  const parts: string[] = [];
  const n = 1 + r.int(4);
  if (r.chance(0.2)) parts.push('^');
  if (r.chance(0.1)) parts.push(r.pick(['(?i)', '(?-i)', '(?s)', '(?m)']));
  for (let i = 0; i < n; i++) {
    let atom = r.pick(REGEX_ATOMS);
    if (depth < 2 && r.chance(0.2)) {
      const alts = Array.from({ length: 1 + r.int(3) }, () => randomRegex(r, depth + 1));
      atom = `${r.pick(['(', '(?:', '(?i:', '(?P<n>'])}${alts.join('|')})`;
    }
    if (r.chance(0.3)) atom += r.pick(['*', '+', '?', '{2}', '{0,2}', '{1,}', '*?', '+?']);
    parts.push(atom);
  }
  if (r.chance(0.2)) parts.push('$');
  let p = parts.join('');
  if (depth === 0 && r.chance(0.15)) p += '|' + randomRegex(r, depth + 1);
  return p;
}
