// Test support (not a module of the serve path): patterns built to make a regex engine work as
// hard as the limits allow, for the tests that every regex request is answered within its work
// budget or refused. No literals (nothing for an index or a prefilter to narrow the texts down
// with): counted repeats, nested, over `.` and classes, alternations and anchors. Shared so that
// the same fuzz can run wherever the API core runs (node, workerd).
import fc from 'fast-check';
import { metered, WorkLimitExceeded, WorkMeter } from '../work-budget.ts';

/** The patterns issue 31 reported (14 s of CPU on the 200-event sample; 15–18 s at 100k events). */
export const ISSUE_PATTERNS = ['(?:.{0,99}\\pL){10}\\p{Sm}', '(?:.{0,30}[aeiou]){30}\\p{Sm}', '.{0,1000}x.{0,1000}'];

/**
 * The most work per character found under the size limit: every position keeps hundreds of
 * threads alive and nothing ever matches (the sample's teasers: 120-310 million units unbounded).
 */
export const HEAVIEST_PATTERNS = ['(?:.{0,60}\\pL){12}\\p{Sm}', '(?:(?:.{0,6}\\pL){10}){10}\\p{Sm}', '(?:[^\\n]{0,60}\\b){12}\\p{Sm}', '(?:.{0,30}[aeiou]){23}\\p{Sm}'];

/** Catastrophic for backtracking engines; linear for RE2. */
export const BACKTRACKING_PATTERNS = [
  '(a+)+$', '(.*a){20}', '(x+x+)+y', '^(([a-z])+.)+[A-Z]([a-z])+$', '(a|aa)+$', '((a*)*)*b', '(.*){1000}', '(\\w+\\s?)+$',
  '((((((((((a*)*)*)*)*)*)*)*)*)*)*$', '[a-z]{1000}', '(?:a?){30}a{30}', `${'(a'.repeat(300)}${')'.repeat(300)}`, '\\p{L}+x', '[[:alpha:]]*z$',
  '(a+)+'.repeat(150), '(.*a)'.repeat(150), `(${Array.from({ length: 150 }, (_, i) => `w${i}`).join('|')})`,
];

const CLASSES = [
  '.', '\\pL', '\\PL', '\\p{Sm}', '\\p{Greek}', '\\p{Lu}', '\\pN', '\\w', '\\W', '\\d', '\\s', '\\S', '[aeiou]', '[^a]', '[a-zäöüß]',
  '[\\pL\\pN]', '[^\\pL]', '(?i:[a-z])', '[[:alpha:]]', '[^\\n]',
];
const ANCHORS = ['^', '$', '\\b', '\\B', '(?m:^)', '(?m:$)'];

const classAtom = fc.constantFrom(...CLASSES);
const count = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 12 }) },
  { weight: 3, arbitrary: fc.integer({ min: 13, max: 120 }) },
  { weight: 1, arbitrary: fc.constantFrom(200, 500, 999, 1000) },
);
const repeat = fc.oneof(
  fc.tuple(count, count).map(([a, b]) => `{${Math.min(a, b)},${Math.max(a, b)}}`),
  count.map((n) => `{${n}}`),
  count.map((n) => `{0,${n}}`),
  count.map((n) => `{${n},}`),
  fc.constantFrom('*', '+', '?', '*?', '+?'),
);

/** A pattern of counted repeats over classes, nested up to three deep, with alternations and anchors. */
export const adversarialPattern: fc.Arbitrary<string> = fc.letrec<{ piece: string; sequence: string }>((tie) => ({
  piece: fc.oneof(
    { maxDepth: 3, depthIdentifier: 'adversarial' },
    fc.tuple(classAtom, fc.option(repeat, { freq: 4 })).map(([c, r]) => c + (r ?? '')),
    fc.tuple(tie('sequence'), repeat).map(([s, r]) => `(?:${s})${r}`),
    fc.array(tie('sequence'), { minLength: 2, maxLength: 3 }).map((bs) => `(?:${bs.join('|')})`),
    fc.constantFrom(...ANCHORS),
  ),
  sequence: fc.array(tie('piece'), { minLength: 1, maxLength: 3, depthIdentifier: 'adversarial' }).map((ps) => ps.join('')),
}))
  .sequence.filter((p) => p.length <= 900)
  .chain((p) => fc.constantFrom(p, `(?i)${p}`, `${p}\\p{Sm}`, `(?:${p}){10}\\p{Sm}`));

/** The issue's and the backtracking patterns, then generated ones. */
export const adversarialPatterns: fc.Arbitrary<string> = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom(...ISSUE_PATTERNS, ...HEAVIEST_PATTERNS, ...BACKTRACKING_PATTERNS) },
  { weight: 4, arbitrary: adversarialPattern },
);

/** What `answer` did under a meter of `limit` units: its result and the units it counted, or the refusal when it went past. */
export function underLimit<T>(limit: number, answer: () => T): { result: T | null; refused: WorkLimitExceeded | null; used: number } {
  const meter = new WorkMeter(limit);
  try {
    return { result: metered(meter, answer), refused: null, used: meter.used };
  } catch (e) {
    if (e instanceof WorkLimitExceeded) return { result: null, refused: e, used: meter.used };
    throw e;
  }
}
