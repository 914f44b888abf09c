import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deriveTeaser, withoutMarkup } from './teaser.ts';

/** What withoutMarkup removes, as the one regular expression that says it (quadratic on unclosed `<`). */
const MARKUP = /<(script|style)(?=[\t\n\f\r />])[^>]*>[\s\S]*?(?:<\/\1\s*>|$)|<\/?[A-Za-z][^>]*>|<!--[\s\S]*?-->|<![^>]*>|<\?[^>]*>/gi;

describe('deriveTeaser', () => {
  it('removes tags, decodes entities, collapses white space and trims', () => {
    expect(deriveTeaser('<h1>Title</h1>\n<p>A &amp; B &lt;tag&gt; &quot;q&quot;&nbsp;x</p>\n\n  <!-- note -->  <br/>end ')).toBe(
      'Title A & B <tag> "q" x end',
    );
  });

  it('leaves out what scripts and styles hold, as search does', () => {
    expect(deriveTeaser('<p>Eintritt frei.</p><script>alert(1)</script><STYLE media="x">p{}</style >\n<p>Ende</p>')).toBe('Eintritt frei. Ende');
    expect(deriveTeaser('<p>Text</p>\n<script src="x.js"></script><p>mehr</p><script>never closed <p>gone</p>')).toBe('Text mehr');
    expect(deriveTeaser('<scripts>kept</scripts> <style-guide>kept too</style-guide>')).toBe('kept kept too');
  });

  it('keeps a lone < that starts no tag', () => {
    expect(deriveTeaser('<p>1 < 2 and 3 > 2</p>')).toBe('1 < 2 and 3 > 2');
  });

  it('leaves text of up to 300 code points alone', () => {
    const text = 'a'.repeat(300);
    expect(deriveTeaser(`<p>${text}</p>`)).toBe(text);
    // 300 code points but 600 UTF-16 units: still not shortened.
    const astral = '😀'.repeat(300);
    expect(deriveTeaser(astral)).toBe(astral);
  });

  it('cuts longer text after 299 code points when a space follows them', () => {
    const head = `${'word '.repeat(59)}abcd`; // 299 code points, ending inside a word
    expect(Array.from(head)).toHaveLength(299);
    expect(deriveTeaser(`${head} more text after`)).toBe(`${head}…`);
  });

  it('cuts back to the last space when a word continues past 299 code points', () => {
    const head = `${'word '.repeat(59)}abcd`;
    expect(deriveTeaser(`${head}efgh more`)).toBe(`${'word '.repeat(59).trimEnd()}…`);
  });

  it('keeps all 299 code points when they hold no space', () => {
    expect(deriveTeaser('x'.repeat(400))).toBe(`${'x'.repeat(299)}…`);
  });

  it('counts code points, not UTF-16 units, and measures after decoding entities', () => {
    const astral = `${'😀'.repeat(299)}😀😀`;
    expect(deriveTeaser(astral)).toBe(`${'😀'.repeat(299)}…`);
    // 301 `&amp;` entities are 301 code points once decoded.
    expect(deriveTeaser('&amp;'.repeat(301))).toBe(`${'&'.repeat(299)}…`);
    expect(deriveTeaser('&amp;'.repeat(300))).toBe('&'.repeat(300));
  });
});

describe('withoutMarkup', () => {
  it('removes what the markup pattern removes, from any text of tags, comments and stray characters', () => {
    const piece = fc.constantFrom('<', '>', '</', '<!', '<!--', '-->', '--', '<?', '-', '!', '?', 'a', 'Z', '/', ' ', '\n', 'p', '<p>', '<!-->', 'é', '😀', '&amp;', '<script>', '<SCRIPT a', 'script', '</script', '</script >', '<style', '</Style>', 's', '-', '<style/', '\t');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }).map((a) => a.join('')), (html) => {
        expect(withoutMarkup(html)).toBe(html.replace(MARKUP, ''));
      }),
      { numRuns: 20_000 },
    );
  });

  it('reads a body of unclosed tags and comments once, not once per `<`', () => {
    // the pattern looks for an end again from every unclosed `<` of these; one pass reads each once
    for (const body of ['a<b '.repeat(400_000), '<!--'.repeat(400_000), `${'<p>x</p>'.repeat(1000)}${'<!x'.repeat(400_000)}`, '<script>x</scrip'.repeat(100_000), '<style></style'.repeat(100_000)]) {
      const started = process.cpuUsage();
      deriveTeaser(body);
      const used = process.cpuUsage(started);
      // CPU, not wall time: generous enough for a busy machine, far under the quadratic cost
      expect((used.user + used.system) / 1000).toBeLessThan(2000);
    }
  });
});
