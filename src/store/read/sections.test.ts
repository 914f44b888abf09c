import { describe, expect, it, vi } from 'vitest';
import { spyOnDecodes } from '../../../test/decode-spy.ts';
import { FormatError, type Format } from '../format/sections.ts';
import { packSections, canonicalFloats } from '../write/sections.ts';
import { stringTableSections } from '../write/string-table.ts';
import { checkBelow, checkStarts, checkWithin, Sections } from './sections.ts';
import { StringTable } from './string-table.ts';

const F: Format = { magic: 'aula-tst', version: 3, sections: 4, what: 'a test' };

describe('binary sections', () => {
  it('views each section in place, every one starting at a multiple of 8', () => {
    const bytes = packSections(F, [Uint8Array.of(1, 2, 3), Float64Array.of(1.5, NaN), new Uint32Array(0), Int32Array.of(-7)]);
    expect(bytes.byteLength % 8).toBe(0);
    const s = Sections.of(bytes, F);
    expect([...s.u8(0, 'a')]).toEqual([1, 2, 3]);
    const f = s.f64(1, 'b', 2);
    expect(f[0]).toBe(1.5);
    expect(f.buffer).toBe(bytes.buffer); // a view, not a copy
    expect(s.u32(2, 'c').length).toBe(0);
    expect([...s.i32(3, 'd')]).toEqual([-7]);
    // bytes that do not start at a multiple of 8 (a slice of a larger buffer) are copied once
    const shifted = new Uint8Array(bytes.byteLength + 3);
    shifted.set(bytes, 3);
    expect(Sections.of(shifted.subarray(3), F).f64(1, 'b')[0]).toBe(1.5);
  });

  it('refuses another format, another version, a cut file and a section of the wrong size, by what they are', () => {
    const bytes = packSections(F, [Uint8Array.of(1), Float64Array.of(1), new Uint32Array(3), new Int32Array(0)]);
    const refusal = (b: Uint8Array, read: (s: Sections) => unknown = (s) => s) => {
      try {
        read(Sections.of(b, F));
      } catch (e) {
        expect(e).toBeInstanceOf(FormatError);
        return (e as Error).message;
      }
      return 'read';
    };
    expect(refusal(packSections({ ...F, magic: 'aula-xxx' }, [new Uint8Array(0), new Uint8Array(0), new Uint8Array(0), new Uint8Array(0)]))).toMatch(/not a test file \(it starts with "aula-xxx", not "aula-tst"\)/);
    expect(refusal(packSections({ ...F, version: 4 }, [new Uint8Array(0), new Uint8Array(0), new Uint8Array(0), new Uint8Array(0)]))).toBe('a test file of format version 4, made by another version of aula (this one reads version 3)');
    expect(refusal(bytes.subarray(0, 10))).toMatch(/no header/);
    expect(refusal(bytes.subarray(0, bytes.byteLength - 8))).toMatch(/section 2 lies outside it/);
    expect(refusal(bytes, (s) => s.u32(2, 'list', 4))).toBe('a test file whose list holds 3 values, not 4');
    expect(refusal(bytes, (s) => s.f64(2, 'list'))).toMatch(/list is not a whole number of values/);
    expect(refusal(new Uint8Array(64))).toMatch(/not a test file/);
  });

  it('checks lists against their bounds: every value within, offsets from 0 to the total, never decreasing', () => {
    const refused = (run: () => void) => {
      try {
        run();
        return null;
      } catch (e) {
        expect(e).toBeInstanceOf(FormatError);
        return (e as Error).message;
      }
    };
    expect(refused(() => checkBelow(Uint32Array.of(0, 4, 2), 5, F, 'ids'))).toBeNull();
    expect(refused(() => checkBelow(new Uint32Array(0), 0, F, 'ids'))).toBeNull();
    expect(refused(() => checkBelow(Uint32Array.of(0, 5, 2), 5, F, 'ids'))).toBe('a test file whose ids point outside it');
    expect(refused(() => checkBelow(Uint32Array.of(0), 0, F, 'ids'))).toBe('a test file whose ids point outside it');
    expect(refused(() => checkBelow(Int32Array.of(3, -1), 5, F, 'ids'))).toBe('a test file whose ids point outside it');
    expect(refused(() => checkWithin(Int32Array.of(-1, 4, -1), 5, F, 'whose rows are odd'))).toBeNull();
    expect(refused(() => checkWithin(new Int32Array(0), 0, F, 'whose rows are odd'))).toBeNull();
    expect(refused(() => checkWithin(Int32Array.of(4, -2), 5, F, 'whose rows are odd'))).toBe('a test file whose rows are odd');
    expect(refused(() => checkWithin(Int32Array.of(5, -1), 5, F, 'whose rows are odd'))).toBe('a test file whose rows are odd');
    expect(refused(() => checkStarts(Uint32Array.of(0, 2, 2, 7), 7, F, 'lists'))).toBeNull();
    for (const starts of [Uint32Array.of(0, 3, 2, 7), Uint32Array.of(1, 2, 7), Uint32Array.of(0, 2, 6), new Uint32Array(0)]) {
      expect(refused(() => checkStarts(starts, 7, F, 'lists'))).toBe('a test file whose lists do not fit its lists');
    }
  });

  it('writes every NaN as the one quiet NaN, whatever its bits', () => {
    const odd = new Float64Array(1);
    new Uint32Array(odd.buffer).set([1, 0x7ff00000]); // a signalling NaN
    expect(Number.isNaN(odd[0])).toBe(true);
    expect(Buffer.from(canonicalFloats(odd).buffer).equals(Buffer.from(Float64Array.of(NaN).buffer))).toBe(true);
  });
});

describe('string tables', () => {
  it('read back every string, lone surrogates, text beyond Latin-1 and empty strings included', () => {
    const values = ['Vortrag', '', 'Müller', '„Herz“ – 😀', 'lone \ud800 surrogate', '\udfff', 'x'.repeat(1000)];
    const T: Format = { magic: 'aula-str', version: 1, sections: 3, what: 'a table' };
    const table = StringTable.read(Sections.of(packSections(T, stringTableSections(values)), T), 0, 'values', values.length);
    expect(table.length).toBe(values.length);
    expect(Array.from({ length: values.length }, (_, i) => table.at(i))).toEqual(values);
    expect(table.at(3)).toBe(table.at(3)); // kept once made
    expect(() => StringTable.read(Sections.of(packSections(T, stringTableSections(values)), T), 0, 'values', values.length + 1)).toThrow(/values offsets holds 16 values, not 18/);
  });

  it('read per need, read nothing until a string is asked for, then decode each string alone from its bytes, as the table read whole gives it, and only the strings asked for', () => {
    const values = ['\ufeffbom first', 'Vortrag', '', 'Müller', '„Herz“ – 😀', 'lone \ud800 surrogate', '\udfff', '\ufeff', 'x'.repeat(1000)];
    const many = [...values, ...Array.from({ length: 200 }, (_, i) => `Kurs ${i} – Straße`)];
    const T: Format = { magic: 'aula-str', version: 1, sections: 3, what: 'a table' };
    const bytes = packSections(T, stringTableSections(many));
    const whole = StringTable.read(Sections.of(bytes, T), 0, 'values', many.length);
    expect(Array.from({ length: many.length }, (_, i) => whole.at(i))).toEqual(many);
    const fault = (problem: string) => new Error(`the file: ${problem}`);
    const spy = spyOnDecodes();
    const decoded = spy.seen;
    try {
      const lazy = StringTable.read(Sections.of(bytes, T), 0, 'values', many.length, false, fault);
      expect(lazy.length).toBe(many.length);
      expect(decoded).toEqual([]);
      // one string asked for: the exceptions (JSON) and its bytes decoded, nothing else
      expect(lazy.at(3)).toBe('Müller');
      expect(decoded).toEqual([(stringTableSections(many)[2] as Uint8Array).byteLength, Buffer.byteLength('Müller')]);
      // each string alone, in any order, is the whole table's (a leading U+FEFF kept, as read whole)
      for (const i of [0, 7, 4, 2, 8, 1]) expect(lazy.at(i)).toBe(whole.at(i));
      expect(decoded.every((n) => n <= 1000)).toBe(true);
      // a scan: past a share of the list asked for alone, the rest is decoded whole, and still the same
      expect(Array.from({ length: many.length }, (_, i) => lazy.at(i))).toEqual(many);
      expect(Math.max(...decoded)).toBeGreaterThan(1000);
    } finally {
      spy.restore();
    }
  });

  it('refuse a text that does not fit its offsets: read whole at once; per need when a string is first asked for, for its byte offsets, and when that string is asked for, for its UTF-16 ones', () => {
    // (enough strings that two are decoded alone, not the rest whole)
    const values = ['Vortrag', '', 'Müller', '„Herz“ – 😀', 'x'.repeat(100), ...Array.from({ length: 40 }, (_, i) => `Kurs ${i}`)];
    const T: Format = { magic: 'aula-str', version: 1, sections: 3, what: 'a table' };
    const faults: string[] = [];
    const fault = (problem: string) => {
      faults.push(problem);
      return new Error(`the file: ${problem}`);
    };
    const sections = stringTableSections(values);
    const text = sections[0] as Uint8Array;
    // a text one byte short of its offsets
    const short = packSections(T, [text.subarray(0, text.length - 1), ...sections.slice(1)]);
    expect(() => StringTable.read(Sections.of(short, T), 0, 'values', values.length)).toThrow(new FormatError('a table file whose values do not fit their text'));
    const shortLazy = StringTable.read(Sections.of(short, T), 0, 'values', values.length, false, fault);
    expect(() => shortLazy.at(0)).toThrow('the file: a table file whose values byte offsets do not fit its lists');
    faults.length = 0;
    // a UTF-16 offset that does not say the string's length ("Müller" taken as 5 code units, "„Herz“ – 😀" as one more)
    const starts = (sections[1] as Uint32Array).slice();
    starts[3] -= 1;
    const skewed = packSections(T, [text, starts, sections[2]]);
    expect(() => StringTable.read(Sections.of(skewed, T), 0, 'values', values.length)).not.toThrow(); // the total still fits…
    const lazy = StringTable.read(Sections.of(skewed, T), 0, 'values', values.length, false, fault);
    expect(lazy.at(0)).toBe('Vortrag');
    expect(faults).toEqual([]);
    expect(() => lazy.at(2)).toThrow('the file: a table file whose values do not fit their text');
    expect(faults).toHaveLength(1);
  });

  it('read whole but decoded later: laid out and checked at once, each string decoded alone until decodeAll decodes the text once; a string that does not fit throws the fault', () => {
    const values = ['Vortrag', '', 'Müller', '„Herz“ – 😀', 'x'.repeat(100), ...Array.from({ length: 40 }, (_, i) => `Kurs ${i}`)];
    const T: Format = { magic: 'aula-str', version: 1, sections: 3, what: 'a table' };
    const sections = stringTableSections(values);
    const text = sections[0] as Uint8Array;
    const bytes = packSections(T, sections);
    const fault = (problem: string) => new Error(`the file: ${problem}`);
    const spy = spyOnDecodes();
    const decoded = spy.seen;
    try {
      for (const copied of [false, true]) {
        decoded.length = 0;
        const later = StringTable.read(Sections.of(bytes, T), 0, 'values', values.length, copied, fault, true);
        expect(decoded.includes(text.byteLength)).toBe(false);
        expect(later.at(3)).toBe('„Herz“ – 😀');
        expect(later.containing('kurs 1'.replace('k', 'K'), () => true)).toEqual(Uint32Array.from([6, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24]));
        expect(decoded.includes(text.byteLength)).toBe(false);
        later.decodeAll();
        expect(decoded.filter((n) => n === text.byteLength)).toHaveLength(1);
        later.decodeAll();
        expect(Array.from({ length: values.length }, (_, i) => later.at(i))).toEqual(values);
        expect(decoded.filter((n) => n === text.byteLength)).toHaveLength(1);
      }
    } finally {
      spy.restore();
    }
    // byte offsets past the text: refused as it is read, as a table decoded at once is
    const short = packSections(T, [text.subarray(0, text.length - 1), ...sections.slice(1)]);
    expect(() => StringTable.read(Sections.of(short, T), 0, 'values', values.length, true, fault, true)).toThrow(new FormatError('a table file whose values byte offsets do not fit its lists'));
    // a UTF-16 offset that does not say the string's length: found when that string is decoded alone
    const starts = (sections[1] as Uint32Array).slice();
    starts[3] -= 1;
    const skewed = StringTable.read(Sections.of(packSections(T, [text, starts, sections[2]]), T), 0, 'values', values.length, true, fault, true);
    expect(skewed.at(0)).toBe('Vortrag');
    expect(() => skewed.at(2)).toThrow('the file: a table file whose values do not fit their text');
  });

  it('read a lone high surrogate before a lone low one (which the text joins into one character) as they were, whole and per need', () => {
    const values = ['a\ud800', '\udc00b', 'c', 'ü😀', '\ud83d', '\ude00', 'd', ...Array.from({ length: 100 }, (_, i) => `e${i}`)];
    const T: Format = { magic: 'aula-str', version: 1, sections: 3, what: 'a table' };
    const bytes = packSections(T, stringTableSections(values));
    const whole = StringTable.read(Sections.of(bytes, T), 0, 'values', values.length);
    const lazy = StringTable.read(Sections.of(bytes, T), 0, 'values', values.length, false, (p) => new Error(p));
    for (const i of [2, 6, 3, 0, 1, 4, 5, 50]) expect(lazy.at(i), String(i)).toBe(values[i]);
    expect(Array.from({ length: values.length }, (_, i) => whole.at(i))).toEqual(values);
  });

  it('read per need, find the strings containing a needle in their bytes, as a test of each string finds them, without decoding them', () => {
    // lone surrogates (held apart), characters of 2–4 bytes, a needle across two strings' bytes
    const alphabet = [...'abAB -ü€😀', '\ud800', '\udc00'];
    let seed = 7;
    const next = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
    const text = (max: number) => Array.from({ length: next(max + 1) }, () => alphabet[next(alphabet.length)]).join('');
    const values = [...Array.from({ length: 300 }, () => text(12)), 'ab', 'b', 'a'];
    const T: Format = { magic: 'aula-str', version: 1, sections: 3, what: 'a table' };
    const bytes = packSections(T, stringTableSections(values));
    const fault = (problem: string) => new Error(`the file: ${problem}`);
    const lazy = StringTable.read(Sections.of(bytes, T), 0, 'values', values.length, false, fault);
    // (the offsets and exceptions read first: the exceptions are JSON, decoded when read)
    lazy.containing('a', () => true);
    const decode = vi.spyOn(TextDecoder.prototype, 'decode');
    let compared = 0;
    try {
      for (let q = 0; q < 400; q++) {
        const source = values[next(values.length)];
        const from = next(source.length + 1);
        const needle = q % 5 === 0 ? `${text(2)}${text(2)}` : source.slice(from, from + 1 + next(4));
        const found = lazy.containing(needle, () => true);
        if (!needle.isWellFormed() || needle === '') {
          expect(found).toBeNull();
          continue;
        }
        expect([...found!], JSON.stringify(needle)).toEqual(values.flatMap((v, i) => (v.includes(needle) ? [i] : [])));
        compared++;
      }
      expect(decode).not.toHaveBeenCalled();
    } finally {
      decode.mockRestore();
    }
    expect(compared).toBeGreaterThan(200);
  });

  it('read whole, find the strings containing a needle in their decoded text, as a test of each string finds them, without making each string', () => {
    const alphabet = [...'abAB -ü€😀', '\ud800', '\udc00'];
    let seed = 11;
    const next = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
    const text = (max: number) => Array.from({ length: next(max + 1) }, () => alphabet[next(alphabet.length)]).join('');
    const values = [...Array.from({ length: 300 }, () => text(12)), 'ab', 'b', 'a', ''];
    const T: Format = { magic: 'aula-str', version: 1, sections: 3, what: 'a table' };
    const bytes = packSections(T, stringTableSections(values));
    const whole = StringTable.read(Sections.of(bytes, T), 0, 'values', values.length);
    const at = vi.spyOn(whole, 'at');
    let compared = 0;
    for (let q = 0; q < 400; q++) {
      const source = values[next(values.length)];
      const from = next(source.length + 1);
      const needle = q % 5 === 0 ? `${text(2)}${text(2)}` : source.slice(from, from + 1 + next(4));
      let charged = -1;
      const found = whole.containing(needle, (bytes) => {
        charged = bytes;
        return true;
      });
      if (!needle.isWellFormed() || needle === '') {
        expect(found).toBeNull();
        continue;
      }
      expect([...found!], JSON.stringify(needle)).toEqual(values.flatMap((v, i) => (v.includes(needle) ? [i] : [])));
      expect(charged).toBe(Buffer.byteLength(values.join(''), 'utf8'));
      compared++;
    }
    expect(at).not.toHaveBeenCalled();
    expect(compared).toBeGreaterThan(200);
    // a request that cannot afford the search declines it (charged-work.test.ts: its scan stops at the limit)
    expect(whole.containing('a', () => false)).toBeNull();
  });

  it('refuse a section of offsets that is not two lists of the strings', () => {
    const T: Format = { magic: 'aula-str', version: 1, sections: 3, what: 'a table' };
    const sections = stringTableSections(['a', 'b']);
    const odd = packSections(T, [sections[0], (sections[1] as Uint32Array).subarray(0, 5), sections[2]]);
    expect(() => StringTable.read(Sections.of(odd, T), 0, 'values')).toThrow(new FormatError('a table file whose values offsets are not two lists'));
  });
});
