import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blocksToMarkdown, type Block } from '../gen/event-body.ts';
import { linkHref, renderMarkdown, renderWithMarkdownIt } from './markdown.ts';
import { renderMarkdownSubset } from './markdown-subset.ts';

const subset = (source: string) => renderMarkdownSubset(source, linkHref);

/** The property: the subset renderer either declines or agrees with markdown-it exactly. */
function expectAgreement(source: string): void {
  const fast = subset(source);
  if (fast === undefined) return;
  expect(fast, JSON.stringify(source)).toBe(renderWithMarkdownIt(source));
}

/** Taken by the fast path, and the same as markdown-it's. */
function expectTaken(source: string): void {
  const fast = subset(source);
  expect(fast, `declined: ${JSON.stringify(source)}`).not.toBeUndefined();
  expect(fast).toBe(renderWithMarkdownIt(source));
}

describe('renderMarkdownSubset', () => {
  it('renders the common forms of an event body as markdown-it does', () => {
    for (const source of [
      '',
      '\n\n',
      'One line.',
      'Two\nlines.\n',
      'First paragraph.\n\nSecond „quoted“ – with “marks” & ampersands > and "quotes".\n',
      '## Programm\n\n- Begrüßung und Einführung\n- Diskussion\n\nText after.',
      '## Programm\n- right after the heading\n- two',
      '# One\n###### Six\nand a paragraph',
      'A heading with C# inside:\n\n## Kurs C# für Anfänger',
      '1. Erstens\n2. Zweitens\n10. Zehntens',
      '- a\n\n1. b\n\n- c',
      '**Anmeldung erforderlich.** Die Teilnehmerzahl ist *begrenzt*. Weitere Informationen finden Sie [auf der Seite](https://www.example.at/veranstaltungen/x-1_2?a=b&c=d#top).',
      'Emphasis at the end *here*\nand **strong**, *in (brackets)* or *quoted*" too',
      'Escapes: \\* \\_ \\[ \\] \\< \\> \\\\ \\` \\# and *em\\*with a star*',
      '[a link](https://example.org/ä) to encode, [another](mailto:x@example.org) and [a path](/x/y%20z)',
      '[a "quoted" label](https://x.at/?a=1&b=2) and [another](mailto:a&b@x.at)',
      '<div class="hinweis">\n<p>Die Veranstaltung wird aufgezeichnet.</p>\n</div>\n\nAfter.',
      'Before\n\n<div class="box" data-x=\'1\'>\n  <p>Raw <b>HTML</b> &nbsp;</p>\n</div>',
      '<p>\n  text *not* emphasis\n</p>',
      'Numbers: 2025 and 1.5 Mio\n2025 again, 12.5 %',
      'Ein Link [am Zeilenanfang](https://x.example)\n[auch hier](https://y.example) weiter',
    ]) {
      expectTaken(source);
    }
  });

  it('declines what it does not reproduce', () => {
    for (const source of [
      'a\tb', 'a\r\nb', 'a\0b', 'trailing  \nhard break', 'back\\\nslash break', '    code', '```\nfence\n```', '> quote',
      '---', '***', 'Setext\n===', 'Setext\n---', '* star list', '+ plus list', '2. starts at two', '1) paren list',
      '- a\n\n- loose', '1. a\n\n1. loose', '- a\nlazy continuation', 'para\n- interrupted', 'para\n# heading',
      '## closed ##', '#no space', '*', '**a*', '*a**', '***a***', 'Teilnehmer*innen', '*a *b* c*', 'a_b', '`code`',
      '<span>inline</span>', '<pre>\nx\n</pre>', '<DIV>upper</DIV>', '&amp;', '&#39;', '[ref]', '[ref]: /url', '[a][b]',
      '![img](x.png)', '[a](javascript:alert(1))', '[a](<x>)', '[a](x "title")', '[a](x(y))', '[*a*](x)',
      '\u00a0leading', 'trailing\u00a0', '*a*b', '* a*', '*a\n*',
    ]) {
      expect(subset(source), JSON.stringify(source)).toBeUndefined();
      expect(renderMarkdown(source)).toBe(renderWithMarkdownIt(source));
    }
  });

  it('agrees with markdown-it on documents of tricky pieces', () => {
    const piece = fc.constantFrom(
      'Die', 'Ärzte', 'x', 'é', '2025', '1.', '1)', '12.', '1.5', '-', '--', '---', '+', '*', '**', '***', '_', '__', '`',
      '~', '~~~', '#', '##', '######', '#######', '>', '<', '<div>', '<div class="x">', '</div>', '<p>', '<pre>', '<DIV>',
      '<span>', '&', '&amp;', '&#39;', '&x', '\\*', '\\', '\\_', '\\[', '\\.', '[', ']', '](', '[a](https://example.org/x)',
      '[a](javascript:x)', '[b](x%zz)', '(', ')', '!', '![a](b)', '"', "'", '.', ',', ':', ';', '?', '\u00a0', '\u3000',
      '„', '“', '–', ' ', '  ', '=', '===', '|', '%', '[x]: /u', 'https://x.y/z?a=b&c=d',
    );
    const line = fc.array(fc.tuple(piece, fc.constantFrom('', ' ')), { maxLength: 6 }).map((parts) => parts.map(([p, s]) => p + s).join(''));
    const doc = fc.array(fc.oneof(line, fc.constant('')), { maxLength: 8 }).map((lines) => lines.join('\n'));
    fc.assert(fc.property(doc, (source) => expectAgreement(source)), { numRuns: 20_000 });
  });

  it('agrees with markdown-it on documents mostly of words, with emphasis, links and escapes among them', () => {
    const word = fc.constantFrom('Die', 'Ärzte', 'x', 'é', 'Ŧ', '2025', '1.5', 'a.', 'b,', 'c;', 'd:', 'e!', 'f?', '(g)', '"h"', "'i'", '„j“', '–', '#k', 'C#', '&', '>', '1.');
    const span = fc.oneof(
      { weight: 8, arbitrary: word },
      { weight: 2, arbitrary: fc.tuple(fc.constantFrom('*', '**'), word, fc.constantFrom('*', '**', ''), fc.constantFrom('', '.', ',', ')', '"', '*', 'x')).map((p) => p.join('')) },
      { weight: 1, arbitrary: fc.tuple(word, fc.constantFrom('https://example.org/a_b', 'https://x.at/?q=1&r=2#f', '/rel', 'https://a.b/c;d&e', 'ftp://x')).map(([w, u]) => `[${w}](${u})`) },
      { weight: 1, arbitrary: fc.constantFrom('\*', '\_', '\[', '\\', '\&', '\"', '\<', '\>', '\a', '*\**', '**a\.**') },
    );
    const text = fc.array(span, { minLength: 1, maxLength: 6 }).map((w) => w.join(' '));
    const lineOf = fc.oneof(
      { weight: 6, arbitrary: text },
      { weight: 1, arbitrary: text.map((t) => `## ${t}`) },
      { weight: 1, arbitrary: text.map((t) => `- ${t}`) },
      { weight: 1, arbitrary: text.map((t) => `1. ${t}`) },
      { weight: 1, arbitrary: fc.constantFrom('<div class="x">', '<p>raw *x*</p>', '</div>', '<table>') },
      { weight: 2, arbitrary: fc.constant('') },
    );
    let taken = 0;
    fc.assert(
      fc.property(fc.array(lineOf, { maxLength: 8 }).map((lines) => lines.join('\n')), (source) => {
        if (subset(source) !== undefined && source.trim() !== '') taken++;
        expectAgreement(source);
      }),
      { numRuns: 20_000 },
    );
    expect(taken).toBeGreaterThan(2_000);
  });

  it('takes the generator’s bodies unless they hold what it declines, and agrees on all of them', () => {
    const words = fc.constantFrom('Die', 'Veranstaltung', '„Ethik“', 'für', 'Ärztinnen', '2025', 'und', '–', 'Fälle.', 'a*b', '[x]', 'C#', '<b>');
    const text = fc.array(words, { minLength: 1, maxLength: 8 }).map((w) => w.join(' '));
    const inline = fc.oneof(
      text,
      text.map((em) => ({ em })),
      text.map((strong) => ({ strong })),
      fc.tuple(text, fc.constantFrom('https://www.example.at/x', 'https://example.org/ä?q=1#f')).map(([link, href]) => ({ link, href })),
    );
    const block: fc.Arbitrary<Block> = fc.oneof(
      fc.array(inline, { minLength: 1, maxLength: 4 }).map((p) => ({ p: p.flatMap((x, i) => (i === 0 ? [x] : [' ', x])) })),
      text.map((h) => ({ h })),
      fc.array(text, { minLength: 1, maxLength: 4 }).map((ul) => ({ ul })),
      fc.array(text, { minLength: 1, maxLength: 4 }).map((ol) => ({ ol })),
      fc.constant({ html: '<div class="hinweis">\n<p>Bitte anmelden.</p>\n</div>' }),
    );
    let taken = 0;
    let all = 0;
    fc.assert(
      fc.property(fc.array(block, { minLength: 1, maxLength: 6 }), (blocks) => {
        const source = blocksToMarkdown(blocks);
        all++;
        if (subset(source) !== undefined) taken++;
        expectAgreement(source);
      }),
      { numRuns: 3_000 },
    );
    // (declined: two lists of a kind in a row, emphasis next to punctuation, `a*b`, `<b>`)
    expect(taken / all).toBeGreaterThan(0.3);
  });
});
