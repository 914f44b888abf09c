import { describe, expect, it } from 'vitest';
import { lines, load, loadModel } from './test-folder.ts';

describe('site.yaml', () => {
  it('defaults every key, also without the file', async () => {
    const model = await loadModel({});
    expect(model.site).toEqual({ base_url: 'http://localhost:8000', timezone: 'Europe/Vienna', page_size: 20, max_page_size: 1000, title: null });
  });

  it('reads every key and drops a trailing slash of base_url', async () => {
    const model = await loadModel({
      'site.yaml': lines('base_url: https://example.org/events/', 'timezone: America/New_York', 'page_size: 5', 'max_page_size: 50', 'title: Kalender', 'extra: {note: x}'),
    });
    expect(model.site).toEqual({ base_url: 'https://example.org/events', timezone: 'America/New_York', page_size: 5, max_page_size: 50, title: 'Kalender' });
  });

  it('accepts site.json', async () => {
    const model = await loadModel({ 'site.json': '{"page_size": 7}' });
    expect(model.site.page_size).toBe(7);
  });

  it('reports a base_url whose path the host rules cannot hold (it passed check, and failed the build at its end)', async () => {
    for (const url of ['http://x/a b', 'https://example.org/%7Bx%7D', 'https://example.org/a%zz']) {
      const { lines: out } = await load({ 'site.yaml': `base_url: "${url}"\n` });
      expect(out).toEqual([`site.yaml:1:11 base_url: expected a URL links can carry, got ${JSON.stringify(url)}: its path may hold only letters, digits and . _ ~ / - (the host rules the build writes cannot hold others)`]);
    }
    expect((await loadModel({ 'site.yaml': 'base_url: https://example.org/my_site.v2/~x-y/\n' })).site.base_url).toBe('https://example.org/my_site.v2/~x-y');
  });

  it('reports a base_url links would carry with an empty, . or .. segment, or port 0', async () => {
    for (const [url, why] of [['http://a.example//x', 'an empty path segment (//)'], ['http://a.example/api/../x', 'a .. path segment'], ['http://a.example:0', 'port 0 cannot be reached']]) {
      const { lines: out } = await load({ 'site.yaml': `base_url: "${url}"\n` });
      expect(out).toEqual([`site.yaml:1:11 base_url: expected a URL links can carry, got ${JSON.stringify(url)}: ${why}`]);
    }
  });

  it('reports a base_url with a user name or password, without repeating them: they would be in every link', async () => {
    for (const url of ['https://user:s3cret@example.org/api', 'https://user@example.org', 'https://:s3cret@example.org', 'https://u:s3cret@example.org/api?x', 'ftp://u:s3cret@h']) {
      const { lines: out } = await load({ 'site.yaml': `base_url: "${url}"\n` });
      expect(out).toEqual(['site.yaml:1:11 base_url: expected no user name or password in the URL: it is written into every link of the dist']);
      expect(out.join('\n')).not.toMatch(/s3cret/);
    }
  });

  it('a refused page_size or max_page_size is not compared with the other (its default was never written)', async () => {
    const { lines: out } = await load({ 'site.yaml': lines('page_size: 0', 'max_page_size: 5') });
    expect(out).toEqual(['site.yaml:1:12 page_size: expected a positive integer, got 0']);
    expect((await load({ 'site.yaml': lines('page_size: 50', 'max_page_size: 5') })).lines).toEqual(['site.yaml:1:12 page_size: page_size 50 is larger than max_page_size 5']);
  });

  it('reports a bad time zone', async () => {
    const { lines: out, model } = await load({ 'site.yaml': 'timezone: Europe/Viena\n' });
    expect(model).toBeNull();
    expect(out).toEqual(['site.yaml:1:11 timezone: unknown time zone "Europe/Viena" (expected an IANA name such as Europe/Vienna)']);
  });

  it('reads naive event times as UTC when the zone is bad, so it is reported once', async () => {
    const { lines: out } = await load({
      'site.yaml': 'timezone: Mars/Olympus\n',
      'events/a.yaml': lines('id: 1', 'title: T', 'start: 2025-03-30T02:30', 'end: 2025-03-30T03:00', 'last_modified: 2025-01-01'),
    });
    expect(out).toEqual(['site.yaml:1:11 timezone: unknown time zone "Mars/Olympus" (expected an IANA name such as Europe/Vienna)']);
  });

  it('reports a base_url that is not an absolute http(s) URL', async () => {
    for (const [url, col] of [['example.org', 11], ['ftp://example.org', 11], ['https://example.org/?a=1', 11]] as const) {
      const { problems } = await load({ 'site.yaml': `base_url: ${url}\n` });
      expect(problems).toEqual([{ file: 'site.yaml', line: 1, column: col, key: 'base_url', message: expect.stringContaining(JSON.stringify(url)) }]);
    }
  });

  it('reports page sizes that are not positive integers, or a page_size above max_page_size', async () => {
    const { lines: out } = await load({ 'site.yaml': lines('page_size: 0', 'max_page_size: "100"') });
    expect(out).toEqual([
      'site.yaml:1:12 page_size: expected a positive integer, got 0',
      'site.yaml:2:16 max_page_size: expected an integer, got "100"',
    ]);
    const { lines: above } = await load({ 'site.yaml': lines('page_size: 50', 'max_page_size: 10') });
    expect(above).toEqual(['site.yaml:1:12 page_size: page_size 50 is larger than max_page_size 10']);
  });

  it('reports unknown keys, a list instead of a mapping, and a second site file', async () => {
    const { lines: out } = await load({ 'site.yaml': 'base_uri: x\n', 'site.json': '{}' });
    expect(out).toEqual([
      'site.yaml:1:1 only one site file may exist; site.json is another',
      'site.yaml:1:1 base_uri: unknown key (did you mean "base_url"?)',
    ]);
    const { lines: list } = await load({ 'site.yaml': '- page_size: 5\n' });
    expect(list).toEqual(['site.yaml:1:1 expected a mapping, got a list']);
  });
});

describe("site.yaml's title", () => {
  it('is a name: an empty one is reported, null is the default', async () => {
    expect((await load({ 'site.yaml': 'title: "  "\n' })).lines).toEqual(['site.yaml:1:8 title: expected a name, got an empty string (leave title out for the default)']);
    expect((await load({ 'site.yaml': 'title: 7\n' })).lines).toEqual(['site.yaml:1:8 title: expected a string or null, got 7']);
    expect((await loadModel({ 'site.yaml': 'title: null\n' })).site.title).toBeNull();
  });
});
