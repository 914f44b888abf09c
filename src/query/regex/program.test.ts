// program.ts reads re2js internals. This fails loudly when they change shape: re2js must stay
// pinned to the exact version program.ts was written against.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { ALT, BEGIN_TEXT, EMPTY, END_TEXT, FAIL, MATCH, NOP, programOf, Re2jsShapeError, RUNE, WORD_BOUNDARY } from './program.ts';
import { regexFlags } from './regex.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const json = (path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8'));

describe('the re2js program read by program.ts', () => {
  it('comes from re2js 2.10.0, pinned exactly', () => {
    expect(json('package.json').dependencies.re2js).toBe('2.10.0');
    expect(json('node_modules/re2js/package.json').version).toBe('2.10.0');
  });

  it('has the instructions, flags and prefix program.ts expects', () => {
    const re = RE2JS.compile('^(ab|c)x*\\b$', regexFlags(false));
    const internals = re as unknown as { re2Input: { prog: { inst: { op: number; out: number; arg: number }[]; start: number } } };
    // re2js's own listing of the program: its op names and layout are what program.ts maps
    expect(String(internals.re2Input.prog).trim().split('\n').map((l) => l.trim())).toEqual([
      '0       fail',
      '1*      empty 4 -> 2',
      '2       cap 2 -> 6',
      '3       rune1 "a" -> 4',
      '4       rune1 "b" -> 7',
      '5       rune1 "c" -> 7',
      '6       alt -> 3, 5',
      '7       cap 3 -> 9',
      '8       rune1 "x" -> 9',
      '9       alt -> 8, 10',
      '10      empty 16 -> 11',
      '11      empty 8 -> 12',
      '12      match',
    ]);
    const p = programOf(re);
    expect(p.size).toBe(13);
    expect([...p.op]).toEqual([FAIL, EMPTY, NOP, RUNE, RUNE, RUNE, ALT, NOP, RUNE, ALT, EMPTY, EMPTY, MATCH]);
    expect([...p.out]).toEqual(internals.re2Input.prog.inst.map((i) => i.out));
    expect(p.arg[1]).toBe(BEGIN_TEXT);
    expect(p.arg[10]).toBe(WORD_BOUNDARY);
    expect(p.arg[11]).toBe(END_TEXT);
    expect([p.arg[6], p.arg[9]]).toEqual([5, 10]);
    expect(p.start).toBe(1);
    expect(p.anchored).toBe(true);
    expect(p.needs).toBe(BEGIN_TEXT | WORD_BOUNDARY | END_TEXT);
    // `a`, `b`, `c`, `x`: one set each, matched by re2js's own matchRune
    expect(p.sets.length).toBe(4);
    expect(p.sets[p.arg[3]].matches(0x61)).toBe(true);
    expect(p.sets[p.arg[3]].matches(0x41)).toBe(false);
  });

  it('reads `.`, case folding, classes and the literal prefix', () => {
    const dot = programOf(RE2JS.compile('abc.', regexFlags(false)));
    expect(dot.prefix).toBe('abc');
    expect(dot.sets.some((s) => s.any)).toBe(true);
    const folded = programOf(RE2JS.compile('k', regexFlags(true)));
    expect(folded.prefix).toBe('');
    const k = folded.sets[0];
    expect([k.matches(0x6b), k.matches(0x4b), k.matches(0x212a), k.matches(0x6c)]).toEqual([true, true, true, false]);
    const letters = programOf(RE2JS.compile('\\pL', regexFlags(false)));
    expect([letters.sets[0].matches(0x3b1), letters.sets[0].matches(0x31)]).toEqual([true, false]);
    expect(letters.runeCount).toBeGreaterThan(1000);
    expect(programOf(RE2JS.compile('[^\\x00-\\x{10FFFF}]', regexFlags(false))).impossible).toBe(true);
  });

  it('refuses what it does not know, naming it', () => {
    expect(() => programOf({} as RE2JS)).toThrow(Re2jsShapeError);
    const re = RE2JS.compile('a', regexFlags(false));
    const prog = (re as unknown as { re2Input: { prog: { inst: { op: number }[] } } }).re2Input.prog;
    prog.inst[1].op = 12; // a lookbehind instruction, which aula never compiles
    expect(() => programOf(re)).toThrow(/op 12 of instruction 1/);
  });
});
