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
});
