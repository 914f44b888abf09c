import { describe, expect, it } from 'vitest';
import { RE2JS } from 're2js';
import { fold } from '../../../store/format/fold.ts';
import type { TrigramQuery } from '../indexes/trigram.ts';
import { prng, randomRegex, randomText, TRICKY } from '../test-random.ts';
import { literalAlternatives, literalSequences, matchesSequence, requiredLiterals } from './regex-literals.ts';

const run = (text: string, atStart = false, atEnd = false): TrigramQuery => ({ kind: 'run', text, atStart, atEnd });

function holds(q: TrigramQuery, folded: string): boolean {
  switch (q.kind) {
    case 'all':
      return true;
    case 'run':
      if (q.atStart && q.atEnd) return folded === q.text;
      if (q.atStart) return folded.startsWith(q.text);
      if (q.atEnd) return folded.endsWith(q.text);
      return folded.includes(q.text);
    case 'and':
      return q.parts.every((p) => holds(p, folded));
    case 'or':
      return q.parts.some((p) => holds(p, folded));
  }
}

/** The pattern as RE2 compiles it (the reference every fast path is checked against), or null when RE2 refuses it. */
function compiled(pattern: string, ci: boolean): RE2JS | null {
  try {
    return RE2JS.compile(pattern, RE2JS.DOTALL | (ci ? RE2JS.CASE_INSENSITIVE : 0));
  } catch {
    return null;
  }
}

describe('requiredLiterals', () => {
  it.each<[string, boolean, TrigramQuery]>([
    ['Workshop', false, run('workshop')],
    ['^Work', false, run('work', true)],
    ['shop$', false, run('shop', false, true)],
    ['^exact$', false, run('exact', true, true)],
    ['ab+c', false, { kind: 'and', parts: [run('ab'), run('bc')] }],
    ['ab*c', false, { kind: 'and', parts: [run('a'), run('c')] }],
    ['ab?c', false, { kind: 'and', parts: [run('a'), run('c')] }],
    ['ab{2}c', false, run('abbc')],
    ['ab{2,3}c', false, { kind: 'and', parts: [run('abb'), run('bc')] }],
    ['a{,3}', false, run('a{,3}')],
    ['Kardio|Neuro', false, { kind: 'or', parts: [run('kardio'), run('neuro')] }],
    ['(Kardio|Neuro)logie', false, { kind: 'and', parts: [{ kind: 'or', parts: [run('kardio'), run('neuro')] }, run('logie')] }],
    ['(Kardio|.*)logie', false, run('logie')],
    ['x(abc)?y', false, { kind: 'and', parts: [run('x'), run('y')] }],
    ['a.b', false, { kind: 'and', parts: [run('a'), run('b')] }],
    ['\\d+ Uhr', false, run(' uhr')],
    ['a\\.b', false, run('a.b')],
    ['\\Qa.b\\E', false, run('a.b')],
    ['\\Qab\\E*c', false, { kind: 'and', parts: [run('a'), run('c')] }],
    ['\\x{df}er', false, run('ßer')],
    ['[abc]def', false, run('def')],
    ['[]a]xyz', false, run('xyz')],
    ['\\bWork\\b', false, run('work')],
    ['(?m)^Work', false, run('work')],
    ['\\AWork', false, run('work', true)],
    ['WEIẞ', true, run('weiß')],
    ['ΐx', true, run('x')], // ΐ has a case partner that folds differently
    ['ΐx', false, run('ΐx')],
    ['a(?i)ΐb', false, { kind: 'and', parts: [run('a'), run('b')] }],
    ['(?i:ΐ)b|c', false, { kind: 'or', parts: [run('b'), run('c')] }],
    ['(?i)x|ΐ', false, 'all' as never],
    ['a|.*', false, { kind: 'all' }],
    ['.*', false, { kind: 'all' }],
    ['(?<=a)b', false, run('b')],
  ])('%s (ci=%s)', (pattern, ci, expected) => {
    const q = requiredLiterals(pattern, ci);
    if ((expected as unknown) === 'all') expect(q.kind).toBe('all');
    else expect(q).toEqual(expected);
  });

  it('never demands more than the pattern: any text RE2 matches satisfies the query', () => {
    const r = prng(7);
    let checked = 0;
    let matched = 0;
    for (let i = 0; i < 4000; i++) {
      const pattern = randomRegex(r);
      const ci = r.chance(0.5);
      let re: RE2JS;
      try {
        re = RE2JS.compile(pattern, RE2JS.DOTALL | (ci ? RE2JS.CASE_INSENSITIVE : 0));
      } catch {
        continue;
      }
      const q = requiredLiterals(pattern, ci);
      checked++;
      for (let j = 0; j < 25; j++) {
        const text = randomText(r, 14, TRICKY);
        if (!re.test(text)) continue;
        matched++;
        expect(holds(q, fold(text)), `${pattern} (ci=${ci}) on ${JSON.stringify(text)}: ${JSON.stringify(q)}`).toBe(true);
      }
    }
    // the generator must produce enough valid, matching patterns for this to mean something
    expect(checked).toBeGreaterThan(1500);
    expect(matched).toBeGreaterThan(3000);
  });
});

const lit = (text: string, atStart = false, atEnd = false) => ({ text, atStart, atEnd });

describe('literalAlternatives', () => {
  it('recognises plain alternatives of anchored or unanchored literals', () => {
    expect(literalAlternatives('Kardio|^Neuro|logie$|^Exakt$', false)).toEqual([
      lit('Kardio'), lit('Neuro', true), lit('logie', false, true), lit('Exakt', true, true),
    ]);
    expect(literalAlternatives('KARDIO', true)).toEqual([lit('kardio')]);
    expect(literalAlternatives('NEURO|HERZ', true)).toEqual([lit('neuro'), lit('herz')]);
    expect(literalAlternatives('a|', false)).toEqual([lit('a'), lit('')]);
  });
  it('refuses anything needing the regex engine', () => {
    for (const p of ['a.b', 'a\\.b', 'ab*', '(a)', '[a]', 'a{2}', 'a^b', 'a$b', '']) expect(literalAlternatives(p, false), p).toBe(null);
    expect(literalAlternatives('straße', true)).toBe(null); // not ASCII
    expect(literalAlternatives('straße', false)).toEqual([lit('straße')]);
  });
  it('agrees with RE2 wherever it answers', () => {
    const r = prng(9);
    const alphabet = [...'aAbBsSkKſKıİiI|^$ß'];
    let answered = 0;
    for (let i = 0; i < 3000; i++) {
      const pattern = randomText(r, 6, alphabet);
      const ci = r.chance(0.5);
      const re = compiled(pattern, ci);
      const alts = re && literalAlternatives(pattern, ci);
      if (!re || !alts) continue;
      answered++;
      for (let j = 0; j < 20; j++) {
        const text = randomText(r, 8, alphabet);
        const subject = ci ? fold(text) : text;
        const found = alts.some((a) => holds({ kind: 'run', ...a }, subject));
        // exact, except that ı and İ fold to i (the caller asks the engine for texts with them)
        if (ci && /i/i.test(pattern) && /[ıİ]/.test(text)) {
          if (re.test(text)) expect(found).toBe(true);
        } else expect(found, `${pattern} ci=${ci} ${JSON.stringify(text)}`).toBe(re.test(text));
      }
    }
    expect(answered).toBeGreaterThan(300);
  });
});

describe('literalSequences', () => {
  const seq = (parts: string[], atStart = false, atEnd = false) => ({ parts, atStart, atEnd });
  it('recognises a group of alternatives with outer anchors, and literals joined by .*', () => {
    expect(literalSequences('(Kurs|Seminar)$', true)).toEqual([seq(['kurs'], false, true), seq(['seminar'], false, true)]);
    expect(literalSequences('^(?:Herz|lunge)', false)).toEqual([seq(['Herz'], true), seq(['lunge'], true)]);
    expect(literalSequences('und.*Stoff.*wechsel$', true)).toEqual([seq(['und', 'stoff', 'wechsel'], false, true)]);
    expect(literalSequences('^a.*b|c', false)).toEqual([seq(['a', 'b'], true), seq(['c'])]);
  });
  it('refuses anything else', () => {
    for (const p of ['a.b', 'a.*', '.*a', 'a.*.*b', 'a.*?b', '(a|^b)', '(a)(b)', '((a))', 'a(b|c)', '(a|b)c', 'a\\.*b', '[a].*b', 'a$.*b', '', '()']) {
      expect(literalSequences(p, false), p).toBe(null);
    }
    expect(literalSequences('(symposium|Angehörigen)$', true)).toEqual([seq(['symposium'], false, true), seq(['angehörigen'], false, true)]);
    expect(literalSequences('(symposium|Angehörigen)$', false)).toEqual([seq(['symposium'], false, true), seq(['Angehörigen'], false, true)]);
    // characters whose fold RE2 does not agree with, or that a folded İ holds
    for (const p of ['ı.*a', 'a\u0307', 'İ', 'ΐ', 'ﬅ']) expect(literalSequences(p, true), p).toBe(null);
  });
  it('agrees with RE2 wherever it answers', () => {
    const r = prng(21);
    const atoms = [...'aAbBsSkKſKıİiIßẞöÖσςΣµμ\u0307', 'ab', 'ba', '.*', '.*', '|', '^', '$', '(', '(?:', ')'];
    const alphabet = [...'aAbBsSkKſKıİiIßẞöÖσςΣµμΜ\u0307\n'];
    let answered = 0;
    let matched = 0;
    for (let i = 0; i < 6000; i++) {
      const pattern = Array.from({ length: 1 + r.int(7) }, () => r.pick(atoms)).join('');
      const ci = r.chance(0.5);
      const re = compiled(pattern, ci);
      const seqs = re && literalSequences(pattern, ci);
      if (!re || !seqs) continue;
      answered++;
      for (let j = 0; j < 30; j++) {
        const text = randomText(r, 10, alphabet);
        const found = seqs.some((s) => matchesSequence(s, ci ? fold(text) : text));
        if (found) matched++;
        // exact, except that ı and İ fold to i (the caller asks the engine for texts with them)
        if (ci && /i/i.test(pattern) && /[ıİ]/.test(text)) {
          if (re.test(text)) expect(found).toBe(true);
        } else expect(found, `${pattern} ci=${ci} ${JSON.stringify(text)}`).toBe(re.test(text));
      }
    }
    expect(answered).toBeGreaterThan(300);
    expect(matched).toBeGreaterThan(1000);
  });
});
