import fc from 'fast-check';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { ContentBytes, ContentLines, escapeText, fold, foldByOctets, paramValue } from './lines.ts';

const octets = (s: string) => Buffer.byteLength(s, 'utf8');
const mixed = fc.string({ unit: fc.constantFrom('a', ' ', ',', ';', '\\', 'ä', 'ß', '€', '\u{1F389}', '\n'), maxLength: 400 });
// ical.js reads `\\` in a parameter as an escape, which RFC 5545 does not define; names have none
const names = fc.string({ unit: fc.constantFrom('a', ' ', ',', ';', ':', '"', '^', 'ä', '\u{1F389}', '\n'), maxLength: 200 });
const anyText = fc.oneof(mixed, fc.string({ unit: 'binary', maxLength: 300 }));

describe('fold', () => {
  it('leaves a line of up to 75 octets alone', () => {
    expect(fold('x'.repeat(75))).toBe('x'.repeat(75));
    expect(fold('ä'.repeat(37) + 'x')).toBe('ä'.repeat(37) + 'x');
    expect(fold('x'.repeat(76))).toBe(`${'x'.repeat(75)}\r\n x`);
  });

  it('moves a multi-byte character that would cross octet 75 to the next line', () => {
    expect(fold('x'.repeat(74) + 'ä')).toBe(`${'x'.repeat(74)}\r\n ä`);
    expect(fold('x'.repeat(73) + '\u{1F389}')).toBe(`${'x'.repeat(73)}\r\n \u{1F389}`);
  });

  it('gives physical lines of at most 75 octets that unfold to the line, for any text', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const line = text.replace(/[\r\n]/g, '');
        const folded = fold(line);
        for (const physical of folded.split('\r\n')) expect(octets(physical)).toBeLessThanOrEqual(75);
        expect(folded.replaceAll('\r\n ', '')).toBe(line);
        // no break inside a surrogate pair
        expect(folded).not.toMatch(/[\uD800-\uDBFF]\r\n [\uDC00-\uDFFF]/);
      }),
    );
  });
});

describe('escapeText and paramValue', () => {
  it('escape for TEXT', () => {
    expect(escapeText('a\\b;c,d\ne\r\nf\rg')).toBe('a\\\\b\\;c\\,d\\ne\\nf\\ng');
  });

  it('round-trip through a parser for any text without control characters', () => {
    fc.assert(
      fc.property(mixed, names, (summary, cn) => {
        const text = new ContentLines()
          .add('BEGIN', 'VEVENT')
          .add('SUMMARY', escapeText(summary))
          .add('ORGANIZER', 'mailto:a@example.at', { CN: paramValue(cn) })
          .add('END', 'VEVENT')
          .toString();
        const event = new ICAL.Component(ICAL.parse(text));
        expect(event.getFirstPropertyValue('summary') ?? '').toBe(summary.replace(/\r\n?/g, '\n'));
        expect(event.getFirstProperty('organizer')!.getParameter('cn') ?? '').toBe(cn);
      }),
    );
  });
});

describe('the fast paths', () => {
  it('fold cuts an ASCII line exactly as counting its octets does', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 400 }), (line) => {
        expect(fold(line)).toBe(foldByOctets(line));
      }),
      { numRuns: 500 },
    );
  });

  it('escapeText in one pass is the three passes of §3.3.11: line breaks, then controls, then escapes', () => {
    const threePasses = (text: string) =>
      text
        .replace(/\r\n?|\n/g, '\n')
        .replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '')
        .replace(/[\\;,\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));
    fc.assert(
      fc.property(fc.oneof(anyText, fc.string({ unit: fc.constantFrom('\r', '\n', '\r\n', ';', ',', '\\', '\x00', '\x7f', '\t', 'a'), maxLength: 50 })), (text) => {
        expect(escapeText(text)).toBe(threePasses(text));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('ContentBytes', () => {
  // the awkward units: multi-byte characters of 2, 3 and 4 octets, lone surrogates, line breaks,
  // what TEXT escapes, controls dropped and the tab kept
  const awkward = fc.string({ unit: fc.constantFrom('a', ' ', 'ä', '€', '\u{1F389}', '\uD800', '\uDC00', '\r', '\n', '\r\n', ';', ',', '\\', ':', '\x00', '\x1f', '\x7f', '\t'), maxLength: 300 });
  const line = fc.tuple(fc.constantFrom('add', 'text'), fc.constantFrom('SUMMARY', 'X', 'DESCRIPTION-OF-A-LONG-NAME'), fc.oneof(awkward, fc.string({ unit: 'binary', maxLength: 200 }), fc.constant('')), fc.option(awkward, { nil: undefined }));
  const both = (lines: readonly [string, string, string, string | undefined][]) => {
    const text = new ContentLines();
    const bytes = new ContentBytes();
    for (const [how, name, value, param] of lines) {
      if (how === 'add') {
        const params = param === undefined ? undefined : { CN: paramValue(param) };
        text.add(name, escapeText(value), params);
        bytes.add(name, escapeText(value), params);
      } else {
        text.text(name, value);
        bytes.text(name, value);
      }
    }
    return [Buffer.from(text.toString(), 'utf8'), Buffer.from(bytes.bytes)];
  };

  it('writes the UTF-8 of ContentLines, byte for byte, over awkward text', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 8 }), (lines) => {
        const [want, got] = both(lines);
        expect(got.equals(want)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('joins the halves of a pair around the controls TEXT drops, as escapeText does', () => {
    const [want, got] = both([['text', 'SUMMARY', '\uD800\x7f\x00\uDC00\uD800\t\uDC00', undefined]]);
    expect(got.equals(want)).toBe(true);
    expect(want.includes(Buffer.from('\u{10000}'))).toBe(true);
  });

  it('folds a multi-byte character that would cross octet 75 as fold() does, at every offset', () => {
    for (const c of ['ä', '€', '\u{1F389}', '\uD800', '\\', ';', '\n', '\r\n']) {
      for (let pad = 60; pad < 160; pad++) {
        const value = 'x'.repeat(pad) + c + 'y'.repeat(80);
        const [want, got] = both([['text', 'SUMMARY', value, undefined], ['add', 'URL', value, c]]);
        expect(got.equals(want)).toBe(true);
      }
    }
  });

  it('is emptied by clear and grows past its first buffer', () => {
    const bytes = new ContentBytes();
    bytes.text('SUMMARY', 'gone');
    const long = '\u{1F389}'.repeat(5000);
    expect(Buffer.from(bytes.clear().text('SUMMARY', long).bytes).toString('utf8')).toBe(new ContentLines().text('SUMMARY', long).toString());
  });
});
