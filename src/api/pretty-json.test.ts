import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { metered, WorkMeter } from '../query/work-budget.ts';
import { prettyJsonHtml, prettyJsonHtmlByParsing } from './pretty-json.ts';

describe('prettyJsonHtml', () => {
  it('prints any JSON exactly as parsing and printing it again does', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        expect(prettyJsonHtml(text)).toEqual({ html: prettyJsonHtmlByParsing(text), whole: true });
      }),
      { numRuns: 2000 },
    );
  });

  it('is exact on text JSON.stringify did not write: escapes, number notations, index keys, whitespace, not JSON', () => {
    for (const text of [
      '{"a":"\\u00e9\\/\\"https://x.org/?a=1&b=2\\""}',
      '[1.50,1E5,-0,0.1e-7,12345678901234567890]',
      '{"b":1,"2025":2,"a":{}}',
      ' { "a" : [ 1 , "https://x.org/a b" ] } ',
      '{"a":',
      'not json <b>',
      '"https://example.org/?x=<script>"',
    ]) {
      expect(prettyJsonHtml(text)).toEqual({ html: prettyJsonHtmlByParsing(text), whole: true });
    }
  });

  it('links absolute URLs and escapes everything else', () => {
    const { html } = prettyJsonHtml(JSON.stringify({ next: 'https://x.org/v1/?a=1&b=2', title: '<script>alert(1)</script>' }));
    expect(html).toContain('&quot;<a href="https://x.org/v1/?a=1&amp;b=2">');
    expect(html).not.toContain('<script');
  });

  it('shows the first part of a large answer, indented as the whole would be, and charges only that part', () => {
    const text = JSON.stringify({ count: 3, results: Array.from({ length: 3000 }, (_, i) => ({ id: i, title: `Vortrag <${i}>`, url: `https://x.org/${i}/` })) });
    const whole = prettyJsonHtmlByParsing(text);
    const meter = new WorkMeter(Number.MAX_SAFE_INTEGER);
    const cut = metered(meter, () => prettyJsonHtml(text, 10_000));
    expect(cut.whole).toBe(false);
    expect(whole.startsWith(cut.html)).toBe(true);
    expect(cut.html.length).toBeGreaterThan(10_000);
    const full = new WorkMeter(Number.MAX_SAFE_INTEGER);
    metered(full, () => prettyJsonHtml(text));
    expect(meter.used * 10).toBeLessThan(full.used);
  });

  it('cuts a string longer than what is left to show, and the slow pass too', () => {
    const body = `<p>${'Herz ü 😀 '.repeat(200_000)}</p>`;
    for (const text of [JSON.stringify({ id: 1, body }), JSON.stringify({ id: 1, more: { 2025: body } })]) {
      const meter = new WorkMeter(Number.MAX_SAFE_INTEGER);
      const cut = metered(meter, () => prettyJsonHtml(text, 10_000));
      expect(cut.whole).toBe(false);
      // every character shown is escaped to at most six
      expect(cut.html.length).toBeLessThanOrEqual(6 * 10_000);
      expect(prettyJsonHtmlByParsing(text).startsWith(cut.html)).toBe(true);
      expect(cut.html).not.toMatch(/[\ud800-\udbff]$/);
    }
  });
});
