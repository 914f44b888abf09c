import { describe, expect, it } from 'vitest';
import { negotiate } from './negotiate.ts';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,*/*;q=0.8';

describe('negotiate', () => {
  it.each([
    [undefined, undefined, 'json'],
    [undefined, '*/*', 'json'],
    [undefined, 'application/json', 'json'],
    [undefined, BROWSER, 'html'],
    ['api', undefined, 'json'],
    ['', undefined, 'json'],
    ['api', 'application/json, text/html;q=0.5', 'json'],
    ['api', BROWSER, 'html'],
    ['json', BROWSER, 'json'],
    [undefined, 'text/*', 'html'],
    [undefined, 'application/*;q=0.5, text/html;q=0.4', 'json'],
    // equal weights: the more specific range, as DRF's precedence; then JSON, DRF's first renderer
    [undefined, 'text/html,*/*', 'html'],
    [undefined, 'text/*, */*', 'html'],
    [undefined, 'text/html, application/*', 'html'],
    [undefined, 'text/html, application/json', 'json'],
    [undefined, 'application/json, text/html', 'json'],
    [undefined, 'application/*, text/*', 'json'],
    [undefined, 'text/html;q=0.5, */*', 'json'],
    ['json', 'text/html, */*', 'json'],
  ])('format=%s Accept=%s → %s', (format, accept, renderer) => {
    expect(negotiate(format, accept)).toEqual({ ok: true, renderer });
  });

  it('answers 404 for an unknown format, as DRF does', () => {
    expect(negotiate('xml', undefined)).toEqual({ ok: false, status: 404 });
  });

  it('answers 406 when neither JSON nor HTML is acceptable', () => {
    expect(negotiate(undefined, 'application/xml')).toEqual({ ok: false, status: 406 });
    expect(negotiate('json', 'text/html')).toEqual({ ok: false, status: 406 });
    expect(negotiate(undefined, 'application/json;q=0')).toEqual({ ok: false, status: 406 });
  });

  it('ignores a weight that is no qvalue, as DRF ignores every weight', () => {
    for (const weight of ['abc', '2', '', '-1', '0.0001', '1.5', 'NaN']) {
      expect(negotiate(undefined, `application/json;q=${weight}`), weight).toEqual({ ok: true, renderer: 'json' });
    }
    expect(negotiate(undefined, 'application/json;q=0.001')).toEqual({ ok: true, renderer: 'json' });
    expect(negotiate(undefined, 'text/html;q=x, application/json;q=0.5')).toEqual({ ok: true, renderer: 'html' });
  });

  it('decides the same when asked again, whatever else was asked meanwhile (its memo forgets and refills)', () => {
    const formats = [undefined, '', 'api', 'json', 'xml', 'a\nb', '1:'];
    const accepts = [undefined, '', '*/*', BROWSER, 'text/*', 'application/json;q=0', `${'x/y, '.repeat(80)}text/html`];
    const pairs = formats.flatMap((f) => accepts.map((a) => [f, a] as const));
    const first = pairs.map(([f, a]) => negotiate(f, a));
    // more distinct headers than the memo holds
    for (let i = 0; i < 600; i++) negotiate('api', `application/x-${i}, text/html;q=0.${i % 10}`);
    pairs.forEach(([f, a], i) => expect(negotiate(f, a), `${f} ${a}`).toEqual(first[i]));
    expect(negotiate('a', '\nb')).toEqual({ ok: false, status: 404 });
    expect(negotiate(undefined, BROWSER)).toEqual({ ok: true, renderer: 'html' });
  });
});
